import Glibc
import Synchronization

/// Files written by `AtomicFile.write(…, syncs:)` whose data and folder entries are not yet known to be durable, to
/// be made durable together by `flush()`.
///
/// A run writes two or three files per photo, and syncing each one and its folder as it is written made the
/// rendering thread wait for the disk twice per file (Benchmarks/INVESTIGATION.md, section 11). Deferred, the
/// files of a batch are synced together, once per folder, by the catalogue's owner just before the transaction
/// that records them commits: a committed row still always describes durable bytes, and a file that a crash or
/// power cut caught before the flush has no row (the next run writes it again). `kill -9` loses nothing either
/// way: what `write(2)` handed the kernel survives the process.
public final class PendingSyncs: Sendable {
    private let pending = Mutex((files: [String](), folders: Set<String>()))

    public init() {}

    /// Notes a file just renamed into place, and its folder.
    func add(file: String, folder: String) {
        pending.withLock { pending in
            pending.files.append(file)
            pending.folders.insert(folder)
        }
    }

    /// How many files are waiting to be made durable.
    public var count: Int { pending.withLock { $0.files.count } }

    /// fsyncs every pending file, then each of their folders once, and forgets them.
    /// - Throws: `AtomicFileError` for the first file that cannot be synced (an I/O error): what it holds must
    ///   not be recorded. A file that is gone (replaced or deleted since) has nothing left to make durable.
    public func flush() throws {
        let (files, folders) = pending.withLock { pending in
            defer { pending = ([], []) }
            return (pending.files, pending.folders)
        }
        for file in files {
            let fd = NativePath.withCString(file) { open($0, O_RDONLY | O_CLOEXEC) }
            guard fd >= 0 else {
                if errno == ENOENT { continue }
                throw AtomicFileError(path: file, reason: String(cString: strerror(errno)))
            }
            defer { close(fd) }
            guard fsync(fd) == 0 else { throw AtomicFileError(path: file, reason: String(cString: strerror(errno))) }
        }
        for folder in folders.sorted() { AtomicFile.syncFolder(folder) }
    }
}
