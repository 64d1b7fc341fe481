import Foundation
import Vips

/// What the system says a path is: its kind and its file's identity (`lstat`, or `stat` following links).
public struct PathStatus: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case regular, directory, symbolicLink, fifo, socket, device, other

        /// The kind in a sentence: "a folder", "a FIFO", …
        public var description: String {
            switch self {
            case .regular: "a regular file"
            case .directory: "a folder"
            case .symbolicLink: "a symbolic link"
            case .fifo: "a FIFO"
            case .socket: "a socket"
            case .device: "a device"
            case .other: "not a regular file"
            }
        }
    }

    public var kind: Kind
    public var identity: FileIdentity

    /// Why the system could not say: its `errno`.
    public struct Failure: Error, Sendable, Equatable {
        public var code: Int32
        /// The system's sentence for the code (`strerror`).
        public var reason: String { String(cString: strerror(code)) }
    }

    /// The status of `path`, its own (`lstat`) or what a link points to (`stat`). The one place album's plan and
    /// import ask the system about an original; the name goes through `NativePath`, so a name that is not UTF-8
    /// is the file it names.
    public static func of(_ path: String, followingLinks: Bool) -> Result<PathStatus, Failure> {
        var info = stat()
        let failure = NativePath.withCString(path) { name -> Int32 in
            (followingLinks ? stat(name, &info) : lstat(name, &info)) == 0 ? 0 : errno
        }
        guard failure == 0 else { return .failure(Failure(code: failure)) }
        let kind: Kind = switch info.st_mode & S_IFMT {
        case S_IFREG: .regular
        case S_IFDIR: .directory
        case S_IFLNK: .symbolicLink
        case S_IFIFO: .fifo
        case S_IFSOCK: .socket
        case S_IFCHR, S_IFBLK: .device
        default: .other
        }
        return .success(PathStatus(kind: kind, identity: FileIdentity(info)))
    }
}
