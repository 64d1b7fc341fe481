import Core
import Run

extension RunSummary {
    /// The exit status the run leads to: its stop's, else 1 when a step failed, else 0.
    public var exitCode: ExitCode {
        if let stop { return stop.exitCode }
        return failedCount > 0 ? .failures : .ok
    }
}
