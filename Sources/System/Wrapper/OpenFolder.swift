internal import CSystem
import Glibc
import Synchronization

/// A folder held open by a descriptor, so that the stat and the tag of a name in it make the kernel walk that one
/// name rather than the folder's whole path again (`fstatat`, `getxattrat`). The scan of a library stats every file
/// and reads its tag, and a no-op rerun stats every thumbnail: 3 × 10⁵ path walks at 10⁵ photos.
///
/// ```
/// if let folder = OpenFolder("/photos/2024") {
///     let status = try folder.status(of: "IMG_0001.JPG", followingLinks: false)   // lstat of /photos/2024/IMG_0001.JPG
///     let tag = folder.tag("user.album.photo", of: "IMG_0001.JPG")
/// }
/// ```
/// Nothing in the folder is read by opening it (`O_PATH`): a folder that can be walked but not listed opens too.
/// The answers are those of the same calls by path, the errors name the whole path.
public final class OpenFolder: Sendable {
    /// The folder's path, as it was opened.
    public let path: String
    /// `path` with a slash after it, made once.
    private let pathSlash: String
    private let descriptor: Int32

    /// Opens the folder at `path` (links followed); nil when it cannot be (not a folder, gone, no descriptor left):
    /// the caller then uses paths.
    public init?(_ path: String) {
        let descriptor = NativePath.withCString(path) { album_open_folder($0) }
        guard descriptor >= 0 else { return nil }
        self.path = path
        self.pathSlash = path.hasSuffix("/") ? path : path + "/"
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// The path of `name` in this folder.
    public func path(of name: String) -> String { path == "/" ? "/" + name : path + "/" + name }

    /// `path` below this folder, relative to it ("a/b.jpg" for "FOLDER/a/b.jpg"); nil for a path elsewhere.
    public func relative(_ path: String) -> String? {
        guard let rest = path.afterBytePrefix(pathSlash), !rest.isEmpty else { return nil }
        return rest
    }

    /// Stats `name` (a name in this folder, or a relative path below it): what `FileStatus(path(of: name), …)` says.
    /// - Throws: `SystemError` with the call, the whole path and its reason.
    public func status(of name: String, followingLinks: Bool) throws(SystemError) -> FileStatus {
        var info = stat()
        let result = NativePath.withCString(name) { fstatat(descriptor, $0, &info, followingLinks ? 0 : AT_SYMLINK_NOFOLLOW) }
        guard result == 0 else { throw SystemError.last(followingLinks ? "stat" : "lstat", path: path(of: name)) }
        return FileStatus(info)
    }

    /// The tag `attribute` of `name` in this folder, links followed: what `FileTag.get(attribute, path: path(of: name))`
    /// says. Read by `getxattrat` where the kernel has it (Linux 6.13), by path where it does not.
    public func tag(_ attribute: String, of name: String) -> String? {
        guard OpenFolder.tagsRelative.load(ordering: .relaxed) else { return FileTag.get(attribute, path: path(of: name)) }
        return tag(attribute, of: name, relative: true)
    }

    /// `tag(_:of:)` by `getxattrat` (`relative`) or by path: each way is tested against the other.
    package func tag(_ attribute: String, of name: String, relative: Bool) -> String? {
        guard relative else { return FileTag.get(attribute, path: path(of: name)) }
        let size = NativePath.withCString(name) { album_getxattrat(descriptor, $0, attribute, nil, 0) }
        guard size > 0 else {
            // No such call in this kernel (or a filter in front of it that refuses it): by path from now on.
            if size < 0, errno == ENOSYS || errno == EPERM {
                OpenFolder.tagsRelative.store(false, ordering: .relaxed)
                return FileTag.get(attribute, path: path(of: name))
            }
            return nil
        }
        var buffer = [UInt8](repeating: 0, count: size)
        let length = NativePath.withCString(name) { album_getxattrat(descriptor, $0, attribute, &buffer, buffer.count) }
        return length > 0 ? NativePath.string(Array(buffer.prefix(length))) : nil
    }

    /// Whether `getxattrat` is used: until it answers that the kernel has none.
    private static let tagsRelative = Atomic<Bool>(true)
}
