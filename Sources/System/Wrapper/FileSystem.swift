import Glibc

/// Small questions and changes on one path, each one system call through `NativePath`.
///
/// ```
/// do { try FileSystem.remove(path) } catch where !error.notFound { … error.reason … }
/// if let error = FileSystem.whyNotWritable(folder) { … "not writable: \(error.reason)" … }
/// ```
public enum FileSystem {
    /// Removes a file or a link (`unlink`); a folder is never removed this way.
    public static func remove(_ path: String) throws(SystemError) {
        guard NativePath.withCString(path, { unlink($0) }) == 0 else { throw SystemError.last("unlink", path: path) }
    }

    /// Removes a folder only when it is empty (`rmdir`): one that still holds anything stays, with the reason.
    public static func removeEmptyFolder(_ path: String) throws(SystemError) {
        guard NativePath.withCString(path, { rmdir($0) }) == 0 else { throw SystemError.last("rmdir", path: path) }
    }

    /// Whether anything is at `path`, following links (`access(F_OK)`).
    public static func exists(_ path: String) -> Bool {
        NativePath.withCString(path) { access($0, F_OK) } == 0
    }

    /// Why this process may not write `path`, or nil when it may (`access(W_OK)`: this user's permissions, and
    /// `EROFS` for a read-only mount). A path that does not exist answers `notFound`.
    public static func whyNotWritable(_ path: String) -> SystemError? {
        NativePath.withCString(path) { access($0, W_OK) } == 0 ? nil : SystemError.last("access", path: path)
    }

    /// Appends `bytes` to the file at `path`, creating it (0644) when missing: `open(O_APPEND)`, then `write(2)`
    /// until all are written. For a file another program owns and reads after album ends (GitHub's job summary),
    /// not for album's own files, which go through `AtomicFile`.
    public static func append(_ bytes: [UInt8], to path: String) throws(SystemError) {
        let fd = NativePath.withCString(path) { open($0, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644) }
        guard fd >= 0 else { throw SystemError.last("open", path: path) }
        defer { close(fd) }
        if let code = StandardStreams.writeAll(bytes, to: fd) { throw SystemError("write", path: path, code: code) }
    }

    /// Renames `from` to `to`, replacing what is there (`rename(2)`: atomic within one file system).
    public static func rename(_ from: String, to: String) throws(SystemError) {
        let done = NativePath.withCString(from) { source in NativePath.withCString(to) { Glibc.rename(source, $0) } }
        guard done == 0 else { throw SystemError.last("rename", path: from) }
    }

    /// Gives the file at `existing` a second name `path` (`link(2)`: a hard link, no bytes copied; both names are
    /// one file). Fails when `path` exists, across file systems (`EXDEV`) and where the file system has no hard
    /// links (`EPERM`, `ENOTSUP`).
    public static func hardLink(_ existing: String, to path: String) throws(SystemError) {
        let done = NativePath.withCString(existing) { source in NativePath.withCString(path) { Glibc.link(source, $0) } }
        guard done == 0 else { throw SystemError.last("link", path: path) }
    }
}
