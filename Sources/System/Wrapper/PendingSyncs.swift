import Synchronization

/// Folders that `AtomicFile.write(…, syncs:)` renamed files into and whose entries are not yet known to be durable,
/// to be synced together by `flush()`.
///
/// A run writes two or three files per photo. Each file's data is synced before its rename (`AtomicFile`), on the
/// rendering thread; the folder entries of a batch's files are synced once per folder by the catalogue's owner,
/// just before the transaction that records them commits. So a committed row always describes durable bytes under a
/// durable name, and a file that a power cut caught before the flush has no row (the next run writes it again, or
/// finds it byte-identical). `kill -9` loses nothing either way: what the kernel has survives the process.
public final class PendingSyncs: Sendable {
    private let pending = Mutex(Set<String>())

    public init() {}

    /// Notes the folder of a file just renamed into place.
    func add(folder: String) {
        _ = pending.withLock { $0.insert(folder) }
    }

    /// How many folders are waiting to be synced.
    public var count: Int { pending.withLock { $0.count } }

    /// fsyncs each pending folder once, and forgets them.
    /// - Throws: `AtomicFileError` for a folder that cannot be synced (an I/O error): what it holds must not be
    ///   recorded. A folder that is gone has nothing left to make durable.
    public func flush() throws {
        let folders = pending.withLock { pending in
            defer { pending = [] }
            return pending
        }
        for folder in folders.sorted() { try AtomicFile.syncFolder(folder) }
    }
}
