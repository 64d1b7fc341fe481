import System
import Catalogue

/// What import makes of a file whose bytes the catalogue already holds as a photo (found by their hash): the one
/// rule `ImportStage.importFile` records by and `Planner` plans by (docs/catalogue.md, "Aliases").
///
/// ```
/// photo at a.jpg, file a.jpg            → sameFile   (touched: its stat is recorded)
/// photo at a.jpg (gone), file b.jpg     → moved      (b.jpg becomes the photo's path)
/// photo at a.jpg, alias b.jpg, file b.jpg → knownAlias (touched: the alias's stat is recorded)
/// photo at a.jpg, file c.jpg            → newAlias   (c.jpg is recorded as another name of the photo)
/// ```
public enum ImportMatch: Sendable, Equatable {
    case sameFile
    case moved
    case knownAlias(PhotoAlias)
    case newAlias

    /// What import makes of `path`, whose bytes are `photo`'s; `aliases` are the photo's recorded aliases.
    public static func of(path: String, photo: PhotoRecord, aliases: [PhotoAlias]) -> ImportMatch {
        if photo.path == path { return .sameFile }
        if !FileSystem.exists(photo.path) { return .moved }
        if let alias = aliases.first(where: { $0.path == path }) { return .knownAlias(alias) }
        return .newAlias
    }

    /// Whether the import step changes the catalogue (done), or only finds what it knew (skipped): a new name for
    /// known bytes is news; a touched file, a known name or a move keeps the photo as it was.
    public var isNew: Bool { self == .newAlias }

    /// The import step's reason, for `photo` (where its bytes were known, before this import).
    public func reason(_ photo: PhotoRecord) -> String {
        switch self {
        case .sameFile: "already imported, bytes unchanged"
        case .moved: "already imported from \(photo.path), which is gone"
        case .knownAlias: "already imported as another name of \(photo.path), bytes unchanged"
        case .newAlias: "the same bytes as \(photo.path): recorded as another name of it, which gets its own exports"
        }
    }
}
