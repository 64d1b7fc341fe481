import Glibc

/// Writes files so that a crash never leaves a half-written file under the final name.
///
/// The bytes go to a temporary file in the same folder, are flushed with `fsync`, and the temporary file is
/// renamed over the final name (atomic on POSIX file systems); the folder is then synced so the rename is durable.
/// Every path goes through `NativePath`, so a name that is not UTF-8 is written under its own bytes.
public enum AtomicFile {
    /// The extended attribute that names the photo an export was written for, by its original's SHA-256.
    static let ownerAttribute = "user.album.photo"

    /// Writes `bytes` to `path`, creating missing folders. Returns nothing on success; throws with the reason.
    /// - Parameter owner: a photo's hash to tag the file with (`user.album.photo`), set before the rename, so album can
    ///   recognise its own export even when a crash kept the catalogue from recording it. File systems without
    ///   user attributes simply don't keep the tag.
    public static func write(_ bytes: [UInt8], to path: String, owner: String? = nil) throws {
        let folder = Directory.parent(of: path)
        do {
            try Directory.create(folder)
        } catch {
            throw AtomicFileError(path: path, reason: "cannot create folder \(folder): \(error.reason)")
        }
        let name = String(path[path.index(after: path.lastIndex(of: "/") ?? path.startIndex)...])
        var template = NativePath.bytes("\(folder)/.\(name.prefix(64)).album-XXXXXX").map { CChar(bitPattern: $0) } + [0]
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw AtomicFileError(path: path, reason: lastError()) }
        var keepTemporary = false
        defer {
            if !keepTemporary { _ = template.withUnsafeBufferPointer { unlink($0.baseAddress!) } }
        }
        do {
            defer { close(fd) }
            try bytes.withUnsafeBytes { buffer in
                var done = 0
                while done < buffer.count {
                    let n = Glibc.write(fd, buffer.baseAddress! + done, buffer.count - done)
                    if n < 0 {
                        if errno == EINTR { continue }
                        throw AtomicFileError(path: path, reason: lastError())
                    }
                    done += n
                }
            }
            fchmod(fd, 0o644)
            if let owner { FileTag.set(ownerAttribute, to: owner, descriptor: fd) }
            guard fsync(fd) == 0 else { throw AtomicFileError(path: path, reason: lastError()) }
        }
        let renamed = template.withUnsafeBufferPointer { from in NativePath.withCString(path) { rename(from.baseAddress!, $0) } }
        guard renamed == 0 else { throw AtomicFileError(path: path, reason: lastError()) }
        keepTemporary = true
        let folderFD = NativePath.withCString(folder) { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        if folderFD >= 0 {
            fsync(folderFD)
            close(folderFD)
        }
    }

    /// The photo hash an export at `path` was tagged with, if any.
    public static func owner(of path: String) -> String? {
        FileTag.get(ownerAttribute, path: path)
    }

    private static func lastError() -> String { String(cString: strerror(errno)) }
}

/// Writing a file failed; nothing was left under its final name.
public struct AtomicFileError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String { "cannot write \(path): \(reason)" }
}
