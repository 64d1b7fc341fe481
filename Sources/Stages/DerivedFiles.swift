import System

/// The files album made, which import never takes for photos: everything under the catalogue folder and under each
/// export root of the job (the fixed folder part of its `to:` template, `PathTemplate.root`), and any file that
/// carries album's export tag (the `user.album.*` xattr `AtomicFile` sets on exports, read without opening the file).
///
/// Folders are matched by device and inode, so a root reached through another spelling or a link is still found.
/// An export root that is itself an import root (exports written beside their originals) is still walked, since
/// leaving it out would leave out the library: there the tag alone tells exports apart. Where a file system keeps
/// no xattrs, only the folder rules apply.
public struct DerivedFiles: Sendable, Equatable {
    /// The catalogue folder, absolute, as the job names it.
    public var catalogue: String?
    /// The export roots, absolute.
    public var exportRoots: [String]
    let catalogueIdentity: [UInt64]?
    let exportIdentities: Set<[UInt64]>

    public init(catalogue: String? = nil, exportRoots: [String] = []) {
        self.catalogue = catalogue
        self.exportRoots = exportRoots
        catalogueIdentity = catalogue.flatMap(DerivedFiles.identity)
        exportIdentities = Set(exportRoots.compactMap(DerivedFiles.identity))
    }

    /// A folder's device and inode, when it is one.
    package static func identity(of folder: String) -> [UInt64]? {
        FileStatus.of(folder).flatMap { $0.isDirectory ? [$0.device, UInt64($0.inode)] : nil }
    }

    /// Whether the folder with this identity holds derived files only; `isRoot` when it is a root of `from`.
    package func contains(folder identity: [UInt64], isRoot: Bool) -> Bool {
        identity == catalogueIdentity || (!isRoot && exportIdentities.contains(identity))
    }

    /// Whether the file at `path` carries album's export tag.
    package func isTagged(_ path: String) -> Bool { AtomicFile.owner(of: path) != nil }

    /// Whether the file `name` in `folder` carries album's export tag (`ExportTag.isAlbumExport(_:in:)`).
    package func isTagged(_ name: String, in folder: OpenFolder) -> Bool { ExportTag.isAlbumExport(name, in: folder) }
}
