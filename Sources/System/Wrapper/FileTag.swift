internal import CSystem
import Glibc

/// Extended attributes (`user.*`) on files album writes: small tags that travel with a file, such as the photo an
/// export was made for. A file system without user attributes keeps none, and `get` then answers nil.
public enum FileTag {
    /// Tags an open file. A file system that keeps no user attributes (or a value too large for it) keeps nothing.
    public static func set(_ name: String, to value: String, descriptor: Int32) {
        let bytes = NativePath.bytes(value)
        _ = fsetxattr(descriptor, name, bytes, bytes.count, 0)
    }

    /// Takes a tag off a file (symbolic links followed). A tag that is not there, or a file system that keeps no
    /// user attributes, leaves nothing to do.
    public static func remove(_ name: String, path: String) {
        _ = NativePath.withCString(path) { removexattr($0, name) }
    }

    /// A file's tag, or nil when it has none. The value's size is asked first, so a long one (a folder) is read whole.
    public static func get(_ name: String, path: String) -> String? {
        let size = NativePath.withCString(path) { getxattr($0, name, nil, 0) }
        guard size > 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: size)
        let length = NativePath.withCString(path) { getxattr($0, name, &buffer, buffer.count) }
        return length > 0 ? NativePath.string(Array(buffer.prefix(length))) : nil
    }
}
