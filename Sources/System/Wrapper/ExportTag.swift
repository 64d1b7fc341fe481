/// The tag album puts on each file it exports (extended attributes, set on the temporary file before the rename):
/// the photo it was made for, and the catalogue that made it.
///
/// ```
/// user.album.photo              the original's SHA-256 (every album has written this one)
/// user.album.catalogue          the exporting catalogue's id (`Catalogue.identity()`); absent on older albums' tags
/// user.album.catalogue-folder   that catalogue's folder when it wrote the file, for messages only
/// ```
///
/// A file system without user attributes keeps none of them: `ExportTag.of` then answers nil, and only the
/// catalogue's own rows say whose a file is.
public struct ExportTag: Sendable, Equatable {
    static let photoAttribute = "user.album.photo"
    static let catalogueAttribute = "user.album.catalogue"
    static let folderAttribute = "user.album.catalogue-folder"

    /// The SHA-256 of the original the file was exported from.
    public var photo: String
    /// The id of the catalogue that exported it; nil on a tag written by an album older than catalogue ids.
    public var catalogue: String?
    /// Where that catalogue was when it exported the file.
    public var catalogueFolder: String?

    public init(photo: String, catalogue: String?, catalogueFolder: String? = nil) {
        self.photo = photo
        self.catalogue = catalogue
        self.catalogueFolder = catalogueFolder
    }

    /// The tag on the file at `path`, or nil when it has none (not an album export, or no attributes kept).
    /// Symbolic links are followed, as a write through the same path would.
    public static func of(_ path: String) -> ExportTag? {
        guard let photo = FileTag.get(photoAttribute, path: path) else { return nil }
        return ExportTag(photo: photo, catalogue: FileTag.get(catalogueAttribute, path: path),
                         catalogueFolder: FileTag.get(folderAttribute, path: path))
    }

    /// Whether the file at `path` carries album's export tag: read without hashing, so an import can skip it.
    public static func isAlbumExport(_ path: String) -> Bool {
        FileTag.get(photoAttribute, path: path) != nil
    }

    /// Whether the file `name` in `folder` carries album's export tag (`OpenFolder.tag(_:of:)`).
    public static func isAlbumExport(_ name: String, in folder: OpenFolder) -> Bool {
        folder.tag(photoAttribute, of: name) != nil
    }

    /// Takes album's export tag off the file at `path`: an export album keeps on disk but no longer records (it
    /// changed since album wrote it, and `rm` or `prune` forgot its row) is the user's file now, never album's
    /// leftover for `gc` to delete.
    public static func remove(from path: String) {
        for attribute in [photoAttribute, catalogueAttribute, folderAttribute] { FileTag.remove(attribute, path: path) }
    }

    /// Tags an open file (a temporary file before its rename).
    func set(on descriptor: Int32) {
        FileTag.set(ExportTag.photoAttribute, to: photo, descriptor: descriptor)
        if let catalogue { FileTag.set(ExportTag.catalogueAttribute, to: catalogue, descriptor: descriptor) }
        if let catalogueFolder { FileTag.set(ExportTag.folderAttribute, to: catalogueFolder, descriptor: descriptor) }
    }
}
