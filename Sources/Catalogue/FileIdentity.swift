import Foundation
import System

/// What album records of an original's file to tell, without reading it, whether it changed since it was imported:
/// its size, inode and modification time to the nanosecond.
///
/// The one rule for "unchanged" that import's fast path (`ImportStage.importFile`) and `album plan` both apply:
/// a file is unchanged when all three are what the photo recorded. A rewrite in place changes the time or the size;
/// a file renamed over the original (`rsync -t`, `cp -p` and rename, a restore) changes the inode.
public struct FileIdentity: Sendable, Equatable {
    public var bytes: Int
    public var inode: Int
    public var mtimeNanoseconds: Int

    public init(bytes: Int, inode: Int, mtimeNanoseconds: Int) {
        self.bytes = bytes
        self.inode = inode
        self.mtimeNanoseconds = mtimeNanoseconds
    }

    /// The identity a stat gives: `st_size`, `st_ino`, and `st_mtim` in nanoseconds.
    public init(_ status: FileStatus) {
        self.init(bytes: status.size, inode: status.inode, mtimeNanoseconds: status.modifiedNanoseconds)
    }

    /// The identity of the file at `path` now (its link followed), nil when it cannot be stat-ed.
    public init?(file path: String) {
        guard let status = FileStatus.of(path) else { return nil }
        self.init(status)
    }

    public var description: String { "\(bytes) bytes, inode \(inode), modified \(mtimeNanoseconds) ns" }

    /// Whether a file with this identity is still the file `recorded` was imported from or last found at (a photo's
    /// original, another name of its bytes, a pair's second original): the same size, inode and modification time.
    /// Its bytes are not read.
    public func isUnchanged(since recorded: some RecordedFile) -> Bool {
        bytes == recorded.bytes && mtimeNanoseconds == recorded.mtimeNanoseconds && inode == recorded.inode
    }
}

/// A file album recorded with the stat it had when it last read it or found it unchanged: a photo's original
/// (`PhotoRecord`), another name of its bytes (`PhotoAlias`), a pair's second original (`SecondOriginal`).
public protocol RecordedFile {
    var path: String { get }
    var bytes: Int { get }
    var mtimeNanoseconds: Int { get }
    var inode: Int { get }
}

extension RecordedFile {
    /// Whether its file is gone from its path (not a regular file there any more). A file that cannot be stat-ed
    /// for another reason (a permission) is not gone.
    public var isMissing: Bool {
        do {
            return !(try FileStatus(path, followingLinks: true)).isRegular
        } catch {
            return error.notFound
        }
    }
}

extension PhotoRecord: RecordedFile {}
extension PhotoAlias: RecordedFile {}
extension SecondOriginal: RecordedFile {}

/// A sidecar's stat as `photos` records it (`sidecar_bytes`, `sidecar_mtime_ns`, `sidecar_inode`): all nil when the
/// photo had no sidecar.
public struct SidecarIdentity: Sendable, Equatable {
    public var bytes: Int?
    public var inode: Int?
    public var mtimeNanoseconds: Int?

    public init(bytes: Int? = nil, inode: Int? = nil, mtimeNanoseconds: Int? = nil) {
        self.bytes = bytes
        self.inode = inode
        self.mtimeNanoseconds = mtimeNanoseconds
    }

    /// The recorded form of a file's identity.
    public init(_ identity: FileIdentity) {
        self.init(bytes: identity.bytes, inode: identity.inode, mtimeNanoseconds: identity.mtimeNanoseconds)
    }
}

extension PhotoRecord {
    /// Whether the sidecar found now (its path and stat, nil for none) is the one the photo's facts were read with:
    /// the same path, size, inode and modification time, or no sidecar then and now.
    public func sidecarIsUnchanged(_ found: (path: String, identity: FileIdentity)?) -> Bool {
        guard let found else { return sidecar == nil }
        return sidecar == found.path && sidecarIdentity == SidecarIdentity(found.identity)
    }
}
