import System
import Core

/// What a second SIGINT or SIGTERM does to `album run` and `album import`: album ends at once, with 130 or 143,
/// even while a write to a stalled reader of its output blocks (docs/scheduler.md, "Signals"). SQLite's journal and
/// album's atomic writes keep the catalogue sound; the run is resumed by running the job again.
enum SecondSignal {
    /// Says so on stderr if stderr takes it at once, then ends the process with the signal's status.
    package static func end(_ number: Int32) -> Never {
        // Not Console.err: a write blocked on a full output holds Console's lock, and this must end album.
        Console.errWithoutWaiting("\nalbum: stopped at once by a second signal; the catalogue keeps what was committed. Run the job again to resume.")
        CurrentProcess.exitImmediately(number == ProcessSignals.terminate ? ExitCode.terminated.rawValue : ExitCode.interrupted.rawValue)
    }
}
