import Glibc

/// A file another process writes into: a local chunk's log, which the child's stdout and stderr go to. Created
/// (0644) or emptied, write-only, and close-on-exec, so that only the child it is handed to (as its stdout and stderr,
/// which `dup2` makes inheritable) holds it, not every child started after it.
///
/// ```
/// let descriptor = try OutputFile.create(folder + "/chunk-3.log")
/// process.standardOutput = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
/// ```
///
/// album's own files go through `AtomicFile`; a file appended to for another program, through `FileSystem.append`.
public enum OutputFile {
    /// Opens `path` for writing from its start (`open(O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC)`) and returns the
    /// descriptor, which the caller owns and closes.
    /// - Throws: `SystemError` from `open`, with the path.
    public static func create(_ path: String) throws(SystemError) -> Int32 {
        let fd = NativePath.withCString(path) { open($0, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) }
        guard fd >= 0 else { throw SystemError.last("open", path: path) }
        return fd
    }
}
