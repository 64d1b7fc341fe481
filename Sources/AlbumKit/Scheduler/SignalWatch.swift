import Dispatch
import Foundation

/// Turns SIGINT and SIGTERM into a graceful stop: the first asks the run to stop starting photos, the second ends
/// the process at once (SQLite's journal and album's atomic writes keep the catalogue sound even then).
final class SignalWatch {
    private let sources: [DispatchSourceSignal]

    /// Starts watching; `onFirst` runs once, on a private queue, with the signal's number.
    init(onFirst: @escaping @Sendable (Int32) -> Void) {
        let queue = DispatchQueue(label: "album.signals")
        let seen = Counter()
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)  // Dispatch receives it instead of the default handler, which would kill us.
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                if seen.increment() == 1 {
                    onFirst(number)
                } else {
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
    }

    /// Counts signals; touched only on the signal queue.
    /// @unchecked: `value` is read and written only from the serial queue the sources share.
    private final class Counter: @unchecked Sendable {
        private var value = 0
        func increment() -> Int { value += 1; return value }
    }
}
