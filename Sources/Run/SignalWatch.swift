import Dispatch
import System

/// Turns SIGINT and SIGTERM into a graceful stop: the first asks the run to stop starting photos; the second is
/// reported at once, for the caller to end the process (`album run` does, through `SecondSignal`: SQLite's journal
/// and album's atomic writes keep the catalogue sound even then).
final class SignalWatch {
    private let file: SignalFile
    private let source: DispatchSourceRead
    private let previousMask: SignalMask

    /// Starts watching. `onFirst` runs once, on the signal queue, with the signal's number, as soon as the signal is
    /// read: it must not wait on anything that may block (album's output), so that a second signal is still heard;
    /// `onSecond` runs on the signal queue for a second signal and every later one, with that signal's number, and may
    /// end the process.
    /// - Throws: `SystemError` when no signalfd can be opened.
    package init(onFirst: @escaping @Sendable (Int32) -> Void, onSecond: @escaping @Sendable (Int32) -> Void) throws {
        // The signals are read from a signalfd, which sees only signals that stay pending. Dispatch's threads (and
        // libvips', started from them) block them; the calling thread must too, or the kernel may deliver a signal
        // to it instead, and the signalfd never sees it: a second signal was lost 1 run in 3 on a loaded machine.
        // A thread some library made before this still takes them: the redirecting handler sends them back.
        let watched = [ProcessSignals.interrupt, ProcessSignals.terminate]
        previousMask = ProcessSignals.block(watched)
        for number in watched { ProcessSignals.redirectToSignalFile(number) }
        // Not Dispatch's signal sources: on Linux they report two signals that arrive before their handler runs as
        // one (`SignalFile`), so on a loaded machine a second signal was taken for the first (2 runs in 30).
        let file = try SignalFile(watching: watched)
        self.file = file
        let queue = DispatchQueue(label: "album.signals")
        let seen = Counter()
        source = DispatchSource.makeReadSource(fileDescriptor: file.descriptor, queue: queue)
        source.setEventHandler {
            for number in file.take() {  // one number per signal, in the order they came
                if seen.next() == 1 {
                    // At once, before the next signal is read: the stop takes effect as the signal is read (the
                    // caller announces it from another thread, since its output may be blocked).
                    onFirst(number)
                } else {
                    // On this queue, whatever the first signal's announcement is waiting on: the caller ends album.
                    onSecond(number)
                }
            }
        }
        source.setCancelHandler { file.close() }
        source.resume()
    }

    /// Stops watching and restores the default handlers.
    package func cancel() {
        source.cancel()
        ProcessSignals.restoreDefault(ProcessSignals.interrupt)
        ProcessSignals.restoreDefault(ProcessSignals.terminate)
        previousMask.restore()
    }

    /// Counts signals; touched only on the signal queue.
    /// @unchecked: `value` is read and written only from the serial queue the source runs on.
    private final class Counter: @unchecked Sendable {
        private var value = 0
        /// Counts one more signal; returns which it is (1 for the first).
        func next() -> Int {
            value += 1
            return value
        }
    }
}
