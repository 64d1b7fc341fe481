import Core

/// A photo as JSON: the one encoding `album ls --json` (one per photo) and `album show --json` (its `photo`) print.
///
/// Every column but the fast path's stat (`mtime_ns`, `inode`), under the column's name; `filter_recipe` as the
/// JSON it holds; then, when the caller knows it, the photo's state (computed, not a column: `PhotoRecord.conditions`)
/// and, for a damaged photo, the reason. docs/catalogue.md lists the fields.
extension PhotoRecord {
    /// The photo with what the caller knows beyond its columns: its state, `"state"` (ok, damaged, missing, changed,
    /// superseded) and `"damage"` (the reason, only when damaged), and its other known paths, `"aliases"`
    /// (docs/catalogue.md "Aliases"), as `ls --json` and `show --json` print it.
    /// With `renditions` (`album ls --json --renditions`), the photo's rendition files too, `"renditions"`, each as
    /// `Rendition.json`: a manifest for a website build.
    /// Then its second originals (a pair's other file, docs/catalogue.md "Pairs"), `"second_originals"`, each as
    /// `SecondOriginal.json` (`[]` for none).
    public func json(_ condition: PhotoCondition, aliases: [PhotoAlias], seconds: [SecondOriginal] = [], renditions: [Rendition]? = nil) -> JSONValue {
        guard case .object(var members) = json else { return json }
        members.append(("state", .string(condition.state.rawValue)))
        if condition.state == .damaged { members.append(("damage", .string(condition.reason ?? damage))) }
        members.append(("aliases", .array(aliases.map { .string($0.path) })))
        members.append(("second_originals", .array(seconds.map(\.json))))
        if let renditions { members.append(("renditions", .array(renditions.map(\.json)))) }
        return .object(members)
    }

    /// Its columns as `PhotoRecord.columns` place them in JSON.
    public var json: JSONValue {
        .object(columnJSON)
    }
}
