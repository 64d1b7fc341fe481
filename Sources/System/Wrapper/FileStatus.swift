import Glibc

/// One `stat(2)` or `lstat(2)` of a path, always through `NativePath`, so a name that is not UTF-8 is found.
///
/// ```
/// let status = try FileStatus(path, followingLinks: false)     // lstat
/// if status.kind == .symbolicLink { … }
/// let unchanged = status.size == known.bytes && status.inode == known.inode && status.modifiedNanoseconds == known.mtime
/// ```
/// A failure is a `SystemError` naming the path: `notFound` (ENOENT: deleted, moved, or a dangling link when
/// following) and `symbolicLinkLoop` (ELOOP) tell the usual reasons apart.
public struct FileStatus: Sendable, Equatable {
    /// What the path names (`st_mode & S_IFMT`).
    public enum Kind: Sendable, Equatable {
        case regular, directory, symbolicLink, fifo, socket, characterDevice, blockDevice, unknown

        /// "a folder", "a symbolic link", "a FIFO", "a socket", "a device"; "a regular file"; "not a regular file"
        /// for a kind the system did not name.
        public var phrase: String {
            switch self {
            case .regular: "a regular file"
            case .directory: "a folder"
            case .symbolicLink: "a symbolic link"
            case .fifo: "a FIFO"
            case .socket: "a socket"
            case .characterDevice, .blockDevice: "a device"
            case .unknown: "not a regular file"
            }
        }
    }

    public var kind: Kind
    /// `st_size` in bytes.
    public var size: Int
    /// `st_dev`.
    public var device: UInt64
    /// `st_ino`.
    public var inode: Int
    /// `st_mtim` in nanoseconds since 1970.
    public var modifiedNanoseconds: Int
    /// `st_ctim` in nanoseconds since 1970: changed by any write or metadata change, and by nothing a program can set.
    public var changedNanoseconds: Int

    /// Stats `path`: the file a link points to when `followingLinks` (`stat`), the link itself when not (`lstat`).
    /// - Throws: `SystemError` with the call, the path and its reason.
    public init(_ path: String, followingLinks: Bool) throws(SystemError) {
        var info = stat()
        let result = NativePath.withCString(path) { followingLinks ? stat($0, &info) : lstat($0, &info) }
        guard result == 0 else { throw SystemError.last(followingLinks ? "stat" : "lstat", path: path) }
        self.init(info)
    }

    init(_ info: stat) {
        switch info.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        case S_IFLNK: kind = .symbolicLink
        case S_IFIFO: kind = .fifo
        case S_IFSOCK: kind = .socket
        case S_IFCHR: kind = .characterDevice
        case S_IFBLK: kind = .blockDevice
        default: kind = .unknown
        }
        size = Int(info.st_size)
        device = UInt64(info.st_dev)
        inode = Int(info.st_ino)
        modifiedNanoseconds = Int(info.st_mtim.tv_sec) * 1_000_000_000 + Int(info.st_mtim.tv_nsec)
        changedNanoseconds = Int(info.st_ctim.tv_sec) * 1_000_000_000 + Int(info.st_ctim.tv_nsec)
    }

    /// The status of `path` following links, or nil when it cannot be had (for "is it there, and what is it").
    public static func of(_ path: String) -> FileStatus? { try? FileStatus(path, followingLinks: true) }

    public var isRegular: Bool { kind == .regular }
    public var isDirectory: Bool { kind == .directory }
    public var isSymbolicLink: Bool { kind == .symbolicLink }
}
