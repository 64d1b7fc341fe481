import Dispatch
import Foundation
import SQLite
import Synchronization
import System
import Catalogue

/// The catalogue's one serial owner during a run: every read and write goes through its queue.
///
/// Writes are batched into transactions of up to `batchSize` operations or `batchSeconds`, whichever comes first,
/// so the database never limits a run; reads on the same connection see the batch's uncommitted rows. A step
/// that fails to record stops the run (`firstError`), since provenance that cannot be written must not be lost
/// silently.
///
/// A write may carry an `afterCommit` action: it runs on the queue, in the order the writes were queued, right
/// after the transaction that holds the write commits, and never when the write or its commit failed. The
/// scheduler announces a step's `done` or `failed` event that way, so an event promises a row that a crash
/// cannot take back (docs/events.md).
///
/// `package`, not internal, so that Benchmarks/CatalogueBench measures this very path (issue 7's step rows/s).
///
/// @unchecked Sendable: `catalogue` and the batch state are touched only on `queue`.
package final class CatalogueOwner: @unchecked Sendable {
    private let queue = DispatchQueue(label: "album.catalogue")
    private let catalogue: Catalogue
    /// The files written for this run's rows and not yet synced: flushed before every commit.
    package let syncs: PendingSyncs
    private var inTransaction = false
    private var writes = 0
    private var batchStarted = DispatchTime.now()
    private var timer: DispatchSourceTimer?
    private var finished = false
    /// A damaged database was met: the open transaction was rolled back, and nothing more is written.
    private var damaged = false
    /// The `afterCommit` actions of the writes in the open transaction, in order.
    private var pending: [@Sendable () -> Void] = []
    private let error = Mutex<Error?>(nil)

    /// The first write that failed, if any; read from any thread.
    var firstError: Error? { error.withLock { $0 } }

    /// A transaction commits after this many operations (reads through `sync` count)...
    let batchSize: Int
    /// ...or once it has been open this long, whichever comes first.
    let batchSeconds: Double

    /// An owner of `catalogue`, batching as the run does by default (500 operations or half a second); tests pass
    /// other limits to see each one work alone.
    package init(_ catalogue: Catalogue, batchSize: Int = 500, batchSeconds: Double = 0.5, syncs: PendingSyncs = PendingSyncs()) {
        self.catalogue = catalogue
        self.syncs = syncs
        self.batchSize = batchSize
        self.batchSeconds = batchSeconds
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + batchSeconds, repeating: batchSeconds)
        timer.setEventHandler { [unowned self] in
            if inTransaction, elapsed() >= batchSeconds { commitNow() }
        }
        timer.resume()
        self.timer = timer
    }

    /// Runs `body` on the catalogue and waits for it.
    package func sync<T>(_ body: (Catalogue) throws -> T) throws -> T {
        try queue.sync {
            guard !finished else { throw CatalogueError("the run has ended; the catalogue takes no more writes") }
            return try stoppingOnDamage { try batched { try body(catalogue) } }
        }
    }

    /// Runs `body` on the catalogue and commits at once, with everything batched before it: for a write that must
    /// be durable before the caller touches the disk (forgetting a file's row before the file is replaced).
    func syncCommitted<T>(_ body: (Catalogue) throws -> T) throws -> T {
        try queue.sync {
            guard !finished else { throw CatalogueError("the run has ended; the catalogue takes no more writes") }
            let result = try stoppingOnDamage { try batched { try body(catalogue) } }
            commitNow()
            if let error = firstError { throw error }
            return result
        }
    }

    /// Queues a write and returns at once; `afterCommit` runs once the write is committed (not if it fails).
    package func async(_ body: @escaping @Sendable (Catalogue) throws -> Void, afterCommit: (@Sendable () -> Void)? = nil) {
        queue.async { [self] in
            guard !finished else { return }  // a photo abandoned after the grace period: its steps are not recorded
            do {
                try batched {
                    try body(catalogue)
                    if let afterCommit { pending.append(afterCommit) }
                }
            } catch {
                keep(error)
                if let failure = error as? SQLiteError, failure.isCorrupt { stopWriting() }
            }
        }
    }

    /// Commits what is pending and stops the timer. Returns the first write error of the run, if any.
    package func finish() -> Error? {
        queue.sync {
            timer?.cancel()
            timer = nil
            commitNow()
            finished = true
            return firstError
        }
    }

    private func batched<T>(_ body: () throws -> T) throws -> T {
        if damaged, let failure = firstError { throw failure }
        if !inTransaction {
            try catalogue.begin()
            inTransaction = true
            writes = 0
            batchStarted = .now()
        }
        let result = try body()
        writes += 1
        if writes >= batchSize || elapsed() >= batchSeconds { commitNow() }
        return result
    }

    private func commitNow() {
        guard inTransaction else { return }
        let actions = pending
        pending = []
        inTransaction = false
        do {
            // The files this batch records are made durable first, together (`PendingSyncs`): a committed row
            // always describes bytes on disk. Files that cannot be synced are not recorded at all.
            try syncs.flush()
        } catch {
            try? catalogue.rollback()
            keep(error)
            return
        }
        do {
            try catalogue.commit()
        } catch {
            keep(error)
            return  // what the actions would announce was not written
        }
        for action in actions { action() }
    }

    /// A damaged database (SQLITE_CORRUPT, SQLITE_NOTADB) met by a stage's own read or write stops the run like a
    /// failed step write, instead of failing only that photo: the catalogue must not be written on.
    private func stoppingOnDamage<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let failure as SQLiteError where failure.isCorrupt {
            keep(failure)
            stopWriting()
            throw failure
        }
    }

    /// After damage: the batch in flight is rolled back, not committed on a damaged file, and its events never go
    /// out; later writes are refused.
    private func stopWriting() {
        damaged = true
        pending = []
        if inTransaction { try? catalogue.rollback() }
        inTransaction = false
    }

    private func keep(_ failure: Error) {
        error.withLock { if $0 == nil { $0 = failure } }
    }

    private func elapsed() -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - batchStarted.uptimeNanoseconds) / 1e9
    }
}
