import Glibc

/// A system call failed: which call, on which path, and the system's reason (`strerror`).
///
/// ```
/// do { try FileSystem.remove(path) } catch { if !error.notFound { print(error) } }  // "cannot unlink /a/b: Permission denied"
/// ```
public struct SystemError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The call that failed, as its manual page names it: "open", "lstat", "flock".
    public var operation: String
    /// The path it was given, when it was given one.
    public var path: String?
    /// The `errno` it set (or the nearest one, for a library that has its own errors: EIO for libcrypto's).
    public var code: Int32
    /// The library's own words for the failure, when it says more than `errno` (libcrypto's error string); the
    /// reason shown instead of strerror's.
    public var detail: String?

    public init(_ operation: String, path: String? = nil, code: Int32, detail: String? = nil) {
        self.operation = operation
        self.path = path
        self.code = code
        self.detail = detail
    }

    /// The error of the call that just failed: `errno` read now, so make this the first thing after the call.
    static func last(_ operation: String, path: String? = nil) -> SystemError {
        SystemError(operation, path: path, code: errno)
    }

    /// The system's words for the code: "No such file or directory".
    public var reason: String { detail ?? SystemError.reason(for: code) }

    /// The system's words for an `errno` value (`strerror`).
    public static func reason(for code: Int32) -> String { String(cString: strerror(code)) }

    /// "cannot open /a/b: Permission denied".
    public var description: String { "cannot \(operation)\(path.map { " " + $0 } ?? ""): \(reason)" }

    /// Nothing is there (`ENOENT`): the file, or a folder on its way, does not exist.
    public var notFound: Bool { code == ENOENT }
    /// This user may not (`EACCES`, `EPERM`): a folder's permissions, not the file system, refused.
    public var permissionDenied: Bool { code == EACCES || code == EPERM }
    /// A file where a folder was needed (`ENOTDIR`, or `EEXIST` from mkdir on a file).
    public var notADirectory: Bool { code == ENOTDIR || code == EEXIST }
    /// Too many symbolic links on the way (`ELOOP`): a link loop.
    public var symbolicLinkLoop: Bool { code == ELOOP }
    /// A lock another open file holds (`EWOULDBLOCK`).
    public var wouldBlock: Bool { code == EWOULDBLOCK }
    /// A signal came first (`EINTR`): the call may simply be made again.
    public var interrupted: Bool { code == EINTR }

    /// `EBADF` as a value: what a write to a descriptor that was closed fails with.
    public static let badDescriptorCode: Int32 = EBADF
    /// `EPIPE` as a value: what a write to a pipe whose reader went away fails with (SIGPIPE ignored).
    public static let brokenPipeCode: Int32 = EPIPE
}
