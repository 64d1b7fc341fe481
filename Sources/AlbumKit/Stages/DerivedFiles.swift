import System

/// The files album made, which import never takes for photos: everything under the catalogue folder and under each
/// export root of the job (the fixed folder part of its `to:` template, `PathTemplate.root`), and any file that
/// carries album's export tag (the `user.album.*` xattr `AtomicFile` sets, read without opening the file).
///
/// Folders are matched by device and inode, so a root reached through another spelling or a link is still found.
/// Where a file system keeps no xattrs, only the folder rules apply.
public struct DerivedFiles: Sendable, Equatable {
    /// The folders, absolute, as the job names them.
    public var folders: [String]
    /// The folders that exist now, by device and inode.
    let identities: Set<[UInt64]>

    public init(folders: [String] = []) {
        self.folders = folders
        identities = Set(folders.compactMap { folder in
            FileStatus.of(folder).flatMap { $0.isDirectory ? [$0.device, UInt64($0.inode)] : nil }
        })
    }

    /// Whether the folder with this identity holds derived files only.
    func contains(folder identity: [UInt64]) -> Bool { identities.contains(identity) }

    /// Whether the file at `path` carries album's export tag.
    func isTagged(_ path: String) -> Bool { AtomicFile.owner(of: path) != nil }
}
