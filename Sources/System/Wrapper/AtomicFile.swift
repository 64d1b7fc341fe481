internal import CSystem
import Glibc

/// Writes files so that a crash never leaves a half-written file under the final name.
///
/// The bytes go to a temporary file in the same folder, are flushed with `fsync`, and only then is the temporary
/// file renamed over the final name (atomic on POSIX file systems); the folder is then synced so the rename is
/// durable (at once, or with a `PendingSyncs` before the catalogue records the file). The old file at the name
/// stays whole until the rename, so a power cut leaves the old bytes or the new ones there, never neither.
/// Every path goes through `NativePath`, so a name that is not UTF-8 is written under its own bytes.
public enum AtomicFile {
    /// What the final rename may do to a file already at the path.
    public enum Mode: Sendable {
        /// Replace it (rename(2)).
        case replace
        /// Never replace it: the rename fails with `AtomicFileError.exists` when a file is there, even one that
        /// appeared a moment before (`renameat2` with `RENAME_NOREPLACE`; on a file system without it, link(2) and
        /// unlink(2), which fail the same way). Two processes writing one name: one wins, the other is told.
        case noReplace
    }

    /// Writes `bytes` to `path`, creating missing folders. Returns nothing on success; throws with the reason.
    /// - Parameter tag: the export tag to set (`ExportTag`), before the rename, so album recognises its own export
    ///   even when a crash kept the catalogue from recording it. File systems without user attributes simply
    ///   don't keep the tag.
    /// - Parameter mode: `.noReplace` fails with `AtomicFileError.exists` rather than replace a file at `path`.
    /// - Parameter syncs: `nil` (the default) makes the file's folder entry durable before returning; a
    ///   `PendingSyncs` defers the folder's sync to its `flush()`, which the caller must run before it records the
    ///   file anywhere durable (the scheduler's catalogue owner flushes before each commit). The file's own data is
    ///   synced before its rename either way.
    /// - Parameter freshName: with `syncs`, the caller promises `path` is a name no record points at and nothing
    ///   else needs whole until the flush (a catalogue rendition's content-addressed name): its data's fsync then
    ///   waits for the flush too, off the writing thread. A power cut before the flush can leave it empty or torn
    ///   there, unrecorded, for the next run to replace. Never for an export, whose name the user sees.
    public static func write(_ bytes: [UInt8], to path: String, tag: ExportTag? = nil, mode: Mode = .replace,
                             syncs: PendingSyncs? = nil, freshName: Bool = false) throws {
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
            tag?.set(on: fd)
            // The data (and its tag) is durable before the name is: a power cut after the rename finds the whole
            // new file or the old one at `path`, never a zero-byte or torn file (docs/catalogue.md, "Durability").
            if syncs == nil || !freshName {
                guard fsync(fd) == 0 else { throw AtomicFileError(path: path, reason: lastError()) }
            }
        }
        switch mode {
        case .replace:
            let renamed = template.withUnsafeBufferPointer { from in NativePath.withCString(path) { rename(from.baseAddress!, $0) } }
            guard renamed == 0 else { throw AtomicFileError(path: path, reason: lastError()) }
            keepTemporary = true
        case .noReplace:
            try template.withUnsafeBufferPointer { from in try renameNoReplace(from.baseAddress!, to: path) }
            keepTemporary = true
        }
        if let syncs {
            syncs.add(folder: folder, file: freshName ? path : nil)
        } else {
            try syncFolder(folder)
        }
    }

    /// Makes a file's data durable (fsync). A file that is gone has nothing left to sync.
    /// - Throws: `AtomicFileError` naming the file when it cannot be opened or its sync fails (an I/O error).
    static func syncFile(_ file: String) throws {
        let fd = NativePath.withCString(file) { open($0, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else {
            if errno == ENOENT { return }
            throw AtomicFileError(path: file, reason: lastError())
        }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw AtomicFileError(path: file, reason: lastError()) }
    }

    /// Makes a folder's entries (a rename or a new file in it) durable. A folder that is gone has nothing left to
    /// sync; a file system that cannot sync a folder (EINVAL: some FUSE layers and network shares) is left as it is,
    /// and so is a folder this user may write but not read (`-wx`, a drop folder: it cannot be opened to sync),
    /// since the rename in it is done and failing now would only take other files' rows with it.
    /// - Throws: `AtomicFileError` naming the folder when it cannot be opened or its sync fails (an I/O error).
    public static func syncFolder(_ folder: String) throws {
        let folderFD = NativePath.withCString(folder) { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard folderFD >= 0 else {
            if errno == ENOENT || errno == EACCES || errno == EPERM { return }
            throw AtomicFileError(path: folder, reason: "cannot open the folder to sync it: \(lastError())")
        }
        defer { close(folderFD) }
        guard fsync(folderFD) == 0 || errno == EINVAL || errno == ENOTSUP else {
            throw AtomicFileError(path: folder, reason: "cannot sync the folder: \(lastError())")
        }
    }

    /// The photo hash an export at `path` was tagged with, if any (`ExportTag.of(path)?.photo`).
    public static func owner(of path: String) -> String? {
        ExportTag.of(path)?.photo
    }

    /// Renames the temporary file to `path` unless a file is there. `renameat2(RENAME_NOREPLACE)` first; where the
    /// file system does not support it (EINVAL), `link` then `unlink`, which is just as atomic.
    private static func renameNoReplace(_ from: UnsafePointer<CChar>, to path: String) throws {
        if NativePath.withCString(path, { album_rename_noreplace(from, $0) }) == 0 { return }
        var code = errno
        if code == EINVAL || code == ENOSYS {
            if NativePath.withCString(path, { link(from, $0) }) == 0 {
                unlink(from)
                return
            }
            code = errno
        }
        throw AtomicFileError(path: path, reason: String(cString: strerror(code)), exists: code == EEXIST)
    }

    private static func lastError() -> String { String(cString: strerror(errno)) }
}

/// Writing a file failed; nothing was left under its final name.
public struct AtomicFileError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String
    /// A `.noReplace` write found a file already at `path` (EEXIST), and left it as it was.
    public var exists: Bool = false
    public var description: String { "cannot write \(path): \(reason)" }
}
