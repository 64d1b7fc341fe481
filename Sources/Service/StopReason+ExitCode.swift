import Core
import Run

extension StopReason {
    /// The exit status this stop leads to: 143 for SIGTERM, 130 for SIGINT, 1 for too many failures, 3 for the
    /// run's output closed.
    public var exitCode: ExitCode {
        switch self {
        case .signal(let number): number == 15 ? .terminated : .interrupted
        case .failFast, .maxFailures: .failures
        case .outputClosed: .environment
        }
    }
}
