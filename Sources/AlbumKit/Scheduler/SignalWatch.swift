import Dispatch
import System

/// Turns SIGINT and SIGTERM into a graceful stop: the first asks the run to stop starting photos; the second is
/// reported at once, for the caller to end the process (`album run` does, through `SecondSignal`: SQLite's journal
/// and album's atomic writes keep the catalogue sound even then).
final class SignalWatch {
    private let sources: [DispatchSourceSignal]
    private let previousMask: SignalMask

    /// Starts watching. `onFirst` runs once, off the signal queue, with the signal's number; `onSecond` runs on the
    /// signal queue for a second signal and every later one, with that signal's number, and may end the process.
    init(onFirst: @escaping @Sendable (Int32) -> Void, onSecond: @escaping @Sendable (Int32) -> Void) {
        // Dispatch reads these signals from a signalfd, which sees only signals that stay pending. Its own threads
        // (and libvips', started from them) block them; the calling thread must too, or the kernel may deliver a
        // signal to it instead, and Dispatch never hears it: a second signal was lost 1 run in 3 on a loaded machine.
        let watched = [ProcessSignals.interrupt, ProcessSignals.terminate]
        previousMask = ProcessSignals.block(watched)
        let queue = DispatchQueue(label: "album.signals")
        let seen = Counter()
        sources = watched.map { number in
            ProcessSignals.ignore(number)  // Dispatch receives it instead of the default handler, which would kill us.
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {  // the source holds this handler until it is cancelled (cancel() below)
                // Signals that arrive before the handler runs come as one event, and `data` counts them.
                let (before, after) = seen.add(max(1, Int(source.data)))
                if before == 0 {
                    // Not on this queue: announcing the stop may wait on a blocked output, and a second signal must
                    // still be heard while it does.
                    DispatchQueue.global().async { onFirst(number) }
                }
                if after >= 2 {
                    // On this queue, whatever the first signal's announcement is waiting on: the caller ends album.
                    onSecond(number)
                }
            }
            source.resume()
            return source
        }
    }

    /// Stops watching and restores the default handlers.
    func cancel() {
        for source in sources { source.cancel() }
        ProcessSignals.restoreDefault(ProcessSignals.interrupt)
        ProcessSignals.restoreDefault(ProcessSignals.terminate)
        previousMask.restore()
    }

    /// Counts signals; touched only on the signal queue.
    /// @unchecked: `value` is read and written only from the serial queue the sources share.
    private final class Counter: @unchecked Sendable {
        private var value = 0
        /// Adds `count` signals; returns how many there were before and after.
        func add(_ count: Int) -> (before: Int, after: Int) {
            defer { value += count }
            return (value, value + count)
        }
    }
}
