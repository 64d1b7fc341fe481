import System
import Core
import Catalogue

/// A photo named on the command line (`show`, `caption`, `rm`): an argument holding a `/`, or naming an existing
/// file, is a path; anything else is an id or a unique start of one, as `album ls` shows them.
///
/// ```
/// album show 3f2a9c1e                 # an id prefix
/// album show photos/storm.jpg         # a path, from the current folder
/// album rm storm.jpg /srv/dune.jpg    # storm.jpg is here: a path too
/// ```
enum PhotoArgument {
    /// The one photo `argument` names.
    /// - Throws: `UsageError` (exit 2) when it names no photo, or more than one.
    static func resolve(_ argument: String, in catalogue: CatalogueReader) throws -> PhotoRecord {
        if argument.contains("/") || FileSystem.exists(argument) {
            return try resolve(path: Paths.absolute(argument), in: catalogue)
        }
        return try resolve(idPrefix: argument, in: catalogue)
    }

    /// The photo whose original is at `path` (absolute, normalised as import records it): the newest photo imported
    /// from it (its earlier versions, superseded, are named by id), or the photo it is another name of (an alias), or the pair whose second original it is.
    static func resolve(path: String, in catalogue: CatalogueReader) throws -> PhotoRecord {
        var found = try catalogue.latestPhoto(path: path).map { [$0] } ?? []
        for alias in try catalogue.aliases(path: path) where !found.contains(where: { $0.id == alias.photo }) {
            if let photo = try catalogue.photo(id: alias.photo) { found.append(photo) }
        }
        // Or the photo whose second original it is (a pair's other file).
        for second in try catalogue.secondOriginals(path: path) where !found.contains(where: { $0.id == second.photo }) {
            if let photo = try catalogue.photo(id: second.photo) { found.append(photo) }
        }
        switch found.count {
        case 0:
            throw UsageError("no photo in catalogue \(catalogue.folder) was imported from \(path.shown); `album ls` shows them")
        case 1:
            return found[0]
        default:
            let ids = found.map { String($0.id.prefix(8)) }.joined(separator: ", ")
            throw UsageError("\(path.shown) names \(found.count) photos in catalogue \(catalogue.folder) (\(ids): the photo imported "
                             + "from it, and the photos it is another name of); give the id, as `album ls` shows it")
        }
    }

    /// The one photo whose id starts with `prefix`.
    static func resolve(idPrefix prefix: String, in catalogue: CatalogueReader) throws -> PhotoRecord {
        guard !prefix.isEmpty else { throw UsageError("a photo id cannot be empty; `album ls` shows them") }
        let found = try catalogue.photos(idPrefix: prefix, limit: 4)
        switch found.count {
        case 0 where prefix.contains(where: { !$0.isHexDigit && $0 != "-" }):
            throw UsageError("'\(prefix.shown)' is no file here and no photo's id (ids are hexadecimal); `album ls` shows the ids and paths in catalogue \(catalogue.folder)")
        case 0:
            throw UsageError("no photo in catalogue \(catalogue.folder) has an id starting with '\(prefix.shown)'; `album ls` shows them")
        case 1:
            return found[0]
        default:
            let count = try catalogue.countPhotos(idPrefix: prefix)
            let examples = found.prefix(3).map { String($0.id.prefix(max(8, prefix.count + 4))) + "…" }.joined(separator: ", ")
            throw UsageError("'\(prefix)' is ambiguous: \(count) photos have ids starting with it (\(examples)\(count > 3 ? ", …" : "")); give more of the id")
        }
    }
}
