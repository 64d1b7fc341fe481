import Synchronization
import System

/// SIGINT and SIGTERM for `album watch`, which waits between its runs: the first signal is noted for the watch
/// loop to stop at its next look, a second ends album (`onSecond`).
///
/// During a batch the run's own `SignalWatch` (`Scheduler.runAll`) must take the signals, so `pause()` stops this
/// one first and `listen()` starts it again after. Both read one signalfd's worth of pending signals, so the signals
/// stay blocked on the watching thread from `init` to `end()`: one that comes while neither listens waits, pending,
/// for the next to read it, instead of ending album by its default action.
///
/// ```
/// let signals = WatchSignals(onSecond: { SecondSignal.end($0) })
/// try signals.listen()
/// while signals.received == nil { … signals.pause(); run a batch; try signals.listen() … }
/// signals.end()
/// ```
package final class WatchSignals {
    private let mask: SignalMask
    private let onSecond: @Sendable (Int32) -> Void
    private let first = Received()
    private var watch: SignalWatch?

    /// Blocks SIGINT and SIGTERM on the calling thread (threads started from it after this inherit the block).
    package init(onSecond: @escaping @Sendable (Int32) -> Void) {
        mask = ProcessSignals.block([ProcessSignals.interrupt, ProcessSignals.terminate])
        self.onSecond = onSecond
    }

    /// The first signal's number, once one came while listening.
    package var received: Int32? { first.number.withLock { $0 } }

    /// Starts listening (a no-op while listening). A signal that came since `pause()` is read at once.
    /// - Throws: `SystemError` when no signalfd can be opened.
    package func listen() throws {
        guard watch == nil else { return }
        let first = self.first, onSecond = self.onSecond
        watch = try SignalWatch(onFirst: { number in first.number.withLock { $0 = $0 ?? number } }, onSecond: { number in
            // A signal after the first, even one the watch's pause kept for this listener, ends album.
            if first.number.withLock({ $0 }) != nil { onSecond(number) } else { first.number.withLock { $0 = number } }
        })
    }

    /// Stops listening, so a run's own `SignalWatch` takes the next signal.
    package func pause() {
        watch?.cancel()
        watch = nil
    }

    /// Stops listening and restores the thread's signal mask.
    package func end() {
        pause()
        mask.restore()
    }

    /// The first signal, set from the signal queue, read by the watch loop.
    private final class Received: Sendable {
        let number = Mutex<Int32?>(nil)
    }
}
