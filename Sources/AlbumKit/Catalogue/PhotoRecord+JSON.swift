/// A photo as JSON: the one encoding `album ls --json` (one per photo) and `album show --json` (its `photo`) print.
///
/// Every column but the fast path's stat (`mtime_ns`, `inode`), under the column's name; `filter_recipe` as the
/// JSON it holds. docs/catalogue.md lists the fields.
extension PhotoRecord {
    public var json: JSONValue {
        .object([
            ("id", .string(id)), ("path", .string(path)), ("hash", .string(hash)),
            ("bytes", .int(bytes)), ("width", .int(width)), ("height", .int(height)),
            ("format", .string(format)), ("taken", .string(taken)), ("added", .string(added)),
            ("caption", .string(caption)), ("filter", .string(filter)),
            ("filter_recipe", JSONValue(parsing: filterRecipe) ?? .string(filterRecipe)),
            ("camera", .string(camera)), ("orientation", .int(orientation)), ("has_gps", .bool(hasGPS)),
            ("replaces", .string(replaces)), ("stored_path", .string(storedPath)),
        ])
    }

    /// The photo's JSON with its other known paths (`aliases`, docs/catalogue.md "Aliases"), as `show --json` and
    /// `ls --json` print it.
    public func json(aliases: [PhotoAlias]) -> JSONValue {
        guard case .object(var fields) = json else { return json }
        fields.append(("aliases", .array(aliases.map { .string($0.path) })))
        return .object(fields)
    }
}
