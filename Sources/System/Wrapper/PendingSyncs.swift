import Synchronization

/// Folders that `AtomicFile.write(…, syncs:)` renamed files into and whose entries are not yet known to be durable,
/// to be synced together by `flush()`.
///
/// A run writes two or three files per photo. An export's data is synced before its rename (`AtomicFile`), on the
/// rendering thread; a catalogue rendition's, at a fresh content-addressed name, here with the batch; the folder entries of a batch's files are synced once per folder by the catalogue's owner,
/// just before the transaction that records them commits. So a committed row always describes durable bytes under a
/// durable name, and a file that a power cut caught before the flush has no row (the next run writes it again, or
/// finds it byte-identical). `kill -9` loses nothing either way: what the kernel has survives the process.
public final class PendingSyncs: Sendable {
    private let pending = Mutex((folders: Set<String>(), files: [String]()))

    public init() {}

    /// Notes the folder of a file just renamed into place, and the file itself when its data is not yet synced (a
    /// fresh catalogue rendition name: `AtomicFile.write(…, freshName: true)`).
    func add(folder: String, file: String?) {
        pending.withLock { pending in
            pending.folders.insert(folder)
            if let file { pending.files.append(file) }
        }
    }

    /// How many folders are waiting to be synced.
    public var count: Int { pending.withLock { $0.folders.count } }

    /// fsyncs each pending file whose data is not yet durable, then each pending folder once, and forgets them.
    /// - Throws: `AtomicFileError` for a file or folder that cannot be synced (an I/O error): what it holds must not
    ///   be recorded. One that is gone (replaced or deleted since) has nothing left to make durable.
    public func flush() throws {
        let (folders, files) = pending.withLock { pending in
            defer { pending = ([], []) }
            return (pending.folders, pending.files)
        }
        for file in files { try AtomicFile.syncFile(file) }
        for folder in folders.sorted() { try AtomicFile.syncFolder(folder) }
    }
}
