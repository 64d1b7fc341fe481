import Dispatch
import Foundation
import Synchronization
import Stages
import JobFile

/// A bounded parallel map: `transform` over every item on at most `workers` threads at once, the results in the
/// items' order. For work outside a run that is a batch of independent renderings (the report's previews), so that
/// its threads, like the run's, live in `Run`.
///
/// ```
/// let previews = ParallelMap.map(photos, workers: 2) { photo in render(photo) }   // [render(photos[0]), …]
/// ```
///
/// Each thread takes the next item from a shared counter, so a slow item holds back only its own thread. The
/// transform cannot throw: a caller with failures to keep returns them as values (`Result`), one per item.
package enum ParallelMap {
    package static func map<Item: Sendable, Output: Sendable>(_ items: [Item], workers: Int,
                                                             _ transform: @Sendable (Item) -> Output) -> [Output] {
        guard min(workers, items.count) > 1 else { return items.map(transform) }
        let results = Mutex<[Output?]>(Array(repeating: nil, count: items.count))
        forEach(count: items.count, workers: workers) { index in
            let output = transform(items[index])
            results.withLock { $0[index] = output }
        }
        // `forEach` returns when every index has run, so every slot is filled.
        return results.withLock { $0.map { $0! } }
    }

    /// `body` for every index below `count`, on at most `workers` threads at once; returns when each has run.
    /// Each thread takes the next index from a shared counter, so a slow index holds back only its own thread.
    package static func forEach(count: Int, workers: Int, _ body: @Sendable (Int) -> Void) {
        let threads = min(max(1, workers), count)
        guard threads > 1 else { return (0..<count).forEach(body) }
        let next = Atomic<Int>(0)
        // `concurrentPerform` runs at most `threads` iterations at once here: one per thread, each draining the counter.
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            while true {
                let index = next.add(1, ordering: .relaxed).oldValue
                guard index < count else { return }
                body(index)
            }
        }
    }

    /// `forEach` on one thread per processor, as the scan takes it (`ParallelIndices`).
    package static let indices: ParallelIndices = { count, body in
        forEach(count: count, workers: ProcessInfo.processInfo.activeProcessorCount, body)
    }
}

extension Job {
    /// Import's scan (`importScan`), a root's subfolders walked on one thread per processor: what a run, a plan and
    /// a distributed plan scan with.
    package func importScanInParallel() -> ImportScan {
        importScan(parallel: ParallelMap.indices)
    }
}
