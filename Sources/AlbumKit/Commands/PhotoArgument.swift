/// A photo named on the command line by its id or a unique prefix of it, as `album ls` shows them.
enum PhotoArgument {
    /// The one photo whose id starts with `prefix`.
    /// - Throws: `UsageError` (exit 2) when no photo or more than one photo has such an id.
    static func resolve(_ prefix: String, in catalogue: Catalogue) throws -> PhotoRecord {
        guard !prefix.isEmpty else { throw UsageError("a photo id cannot be empty; `album ls` shows them") }
        let found = try catalogue.photos(idPrefix: prefix, limit: 4)
        switch found.count {
        case 0:
            throw UsageError("no photo in catalogue \(catalogue.folder) has an id starting with '\(prefix)'; `album ls` shows them")
        case 1:
            return found[0]
        default:
            let count = try catalogue.countPhotos(idPrefix: prefix)
            let examples = found.prefix(3).map { String($0.id.prefix(max(8, prefix.count + 4))) + "…" }.joined(separator: ", ")
            throw UsageError("'\(prefix)' is ambiguous: \(count) photos have ids starting with it (\(examples)\(count > 3 ? ", …" : "")); give more of the id")
        }
    }
}
