import System
import Core
import Catalogue
import Media

/// One photo on its way through a job's stage chain: what the stages so far have established.
public struct PhotoWork: Sendable {
    /// The photo as the catalogue knows it (updated by import and filter).
    public var photo: PhotoRecord
    /// The original's bytes, read at most once per run and shared by every stage that decodes them.
    public var original: FileBytes?
    /// The current look: the filter steps applied to the original's pixels.
    public var recipe: Recipe
    /// The thumbnail made by a `thumbnail` stage in this chain, for `export: {from: thumbnail}`.
    public var thumbnail: Rendition?
    /// The full-size filtered image a `filter` stage with `keep: full-size` in this chain made or found up to date:
    /// an export with the same encoding copies it instead of rendering the look again. Nil by default (`keep: none`):
    /// an export renders the original with `recipe`.
    public var filtered: (rendition: Rendition, quality: Int)?
    /// The original's paths that exports are made for, when set (`CatalogueSnapshot.exportPaths(of:)`: the photo's
    /// path, then each alias whose file still exists; one alias's path alone for the export made after the
    /// photo's chain); nil: the photo's path alone.
    public var exportPaths: [String]?
    /// The path this import recorded as another name of the photo (`ImportMatch.newAlias`): its exports are made
    /// after the photo's chain, by the scheduler and the plan alike.
    public var newAlias: PhotoAlias?
    /// The one decode this photo's outputs share in this run, when the scheduler planned one (`SharedDecode`); nil:
    /// each output renders alone from the original.
    public var shared: SharedDecode?
    /// Import changed only the photo's facts (its sidecar changed): the same bytes, not a new version.
    public var factsOnly = false

    public init(photo: PhotoRecord, original: FileBytes? = nil, recipe: Recipe) {
        self.photo = photo
        self.original = original
        self.recipe = recipe
    }

    /// The paths each export renders its template for, the photo's own first (docs/catalogue.md, "Aliases").
    public var paths: [String] { exportPaths ?? [photo.path] }

    /// The identity of the current look: the original's hash, or a hash of it with the recipe (`LookHash`).
    public var lookHash: String {
        // The original look (no steps) is the original's hash: known without writing the recipe's JSON.
        recipe.isEmpty ? photo.hash : LookHash.of(original: photo.hash, recipe: recipe.canonical.text)
    }

    /// The original's bytes, reading them now when no earlier stage has.
    /// - Throws: `StageError` when the file is gone, unreadable or no longer the photo album imported.
    public mutating func originalBytes(catalogueFolder: String) throws -> FileBytes {
        if let original { return original }
        let path = photo.originalPath(in: catalogueFolder)
        let bytes: FileBytes
        do {
            bytes = try ImageFormat.readOriginal(path)
        } catch let error as FileBytesError {
            throw StageError("the original \(path) cannot be read (\(error.reason)); it may have been moved or deleted")
        }
        guard bytes.size == photo.bytes, try bytes.sha256() == photo.hash else {
            throw StageError("the original \(path) has changed since it was imported; run an import of its folder to record the new version")
        }
        original = bytes
        return bytes
    }
}
