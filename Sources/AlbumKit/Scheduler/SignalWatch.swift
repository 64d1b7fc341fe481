import Dispatch
import Foundation

/// Turns SIGINT and SIGTERM into a graceful stop: the first asks the run to stop starting photos, the second ends
/// the process at once (SQLite's journal and album's atomic writes keep the catalogue sound even then).
final class SignalWatch {
    private let sources: [DispatchSourceSignal]
    private var previousMask = sigset_t()

    /// Starts watching; `onFirst` runs once, off the signal queue, with the signal's number.
    init(onFirst: @escaping @Sendable (Int32) -> Void) {
        // Dispatch reads these signals from a signalfd, which sees only signals that stay pending. Its own threads
        // (and libvips', started from them) block them; the calling thread must too, or the kernel may deliver a
        // signal to it instead, and Dispatch never hears it: a second signal was lost 1 run in 3 on a loaded machine.
        var watched = sigset_t()
        sigemptyset(&watched)
        sigaddset(&watched, SIGINT)
        sigaddset(&watched, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &watched, &previousMask)
        let queue = DispatchQueue(label: "album.signals")
        let seen = Counter()
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)  // Dispatch receives it instead of the default handler, which would kill us.
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
                    // Not Console.err: a write blocked on a full output holds Console's lock, and this must end album.
                    Console.errWithoutWaiting("\nalbum: stopped at once by a second signal; the catalogue keeps what was committed. Run the job again to resume.")
                    _exit(number == SIGTERM ? ExitCode.terminated.rawValue : ExitCode.interrupted.rawValue)
                }
            }
            source.resume()
            return source
        }
    }

    /// Stops watching and restores the default handlers.
    func cancel() {
        for source in sources { source.cancel() }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
        pthread_sigmask(SIG_SETMASK, &previousMask, nil)
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
