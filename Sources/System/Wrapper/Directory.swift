import Glibc

/// Folders, read by raw directory entries (`opendir`/`readdir`), so names that are not UTF-8 survive (`NativePath`).
///
/// ```
/// let listing = Directory.entries(of: "/photos")
/// for name in listing.names { … }                       // sorted, without "." and ".."
/// if let failure = listing.failure { … failure.reason … }  // could not be listed, or stopped half way
/// ```
public enum Directory {
    /// The names in `folder`, sorted, without `.` and `..`. A folder that cannot be opened gives no names and the
    /// reason; one whose reading fails half way gives the names read until then and the reason.
    public static func entries(of folder: String) -> DirectoryListing {
        let opened = NativePath.withCString(folder) { opendir($0) }
        guard let directory = opened else {
            return DirectoryListing(names: [], failure: SystemError.last("opendir", path: folder))
        }
        defer { closedir(directory) }
        var names: [String] = []
        var failure: SystemError?
        while true {
            errno = 0
            guard let entry = readdir(directory) else {
                if errno != 0 { failure = SystemError.last("readdir", path: folder) }
                break
            }
            let name = withUnsafeBytes(of: &entry.pointee.d_name) { raw in
                NativePath.string(Array(raw.prefix { $0 != 0 }))
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return DirectoryListing(names: names.sorted(), failure: failure)
    }

    /// Creates `folder` and the folders above it that are missing (`mkdir -p`; mode 0777 less the umask, as
    /// Foundation's `createDirectory` makes them). Each folder it makes is durable before it returns (its parent
    /// is synced), so a file synced into it later survives a power cut under its whole path.
    /// - Throws: `SystemError` naming the folder that could not be made.
    public static func create(_ folder: String) throws(SystemError) {
        if (try? FileStatus(folder, followingLinks: true))?.isDirectory == true { return }
        let parent = Directory.parent(of: folder)
        if parent != folder { try create(parent) }
        guard NativePath.withCString(folder, { mkdir($0, 0o777) }) == 0 else {
            let error = SystemError.last("mkdir", path: folder)
            guard error.code == EEXIST else { throw error }
            // Made meanwhile by another writer: what was asked for is there. Anything else there is not a folder.
            if (try? FileStatus(folder, followingLinks: true))?.isDirectory == true { return }
            throw SystemError("mkdir", path: folder, code: ENOTDIR)
        }
        try? AtomicFile.syncFolder(parent)
    }

    /// The folder that holds `path`: "/a/b" → "/a", "/a" → "/", "b" → ".".
    public static func parent(of path: String) -> String {
        var path = Substring(path)
        while path.count > 1, path.hasSuffix("/") { path = path.dropLast() }
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let parent = path[..<slash]
        return parent.isEmpty ? "/" : String(parent)
    }
}
