import CSystem
import Glibc

/// Extended attributes (`user.*`) on files album writes: small tags that travel with a file, such as the photo an
/// export was made for. A file system without user attributes keeps none, and `get` then answers nil.
public enum FileTag {
    /// Tags an open file.
    public static func set(_ name: String, to value: String, descriptor: Int32) {
        _ = fsetxattr(descriptor, name, value, value.utf8.count, 0)
    }

    /// A file's tag, or nil when it has none.
    public static func get(_ name: String, path: String) -> String? {
        var buffer = [UInt8](repeating: 0, count: 256)
        let length = NativePath.withCString(path) { getxattr($0, name, &buffer, buffer.count) }
        return length > 0 ? String(decoding: buffer.prefix(length), as: UTF8.self) : nil
    }
}
