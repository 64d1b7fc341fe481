import Core
import Catalogue

/// Receives a run's events as they happen: the text, JSON and GitHub reporters implement it.
///
/// The scheduler calls `step` from worker threads and `progress` from its timer; implementations serialise their
/// own output.
public protocol RunObserver: Sendable {
    /// Before the first photo: the run's id, the job's name, and how many photos are expected.
    func runStarted(run: Int64, job: String, photos: Int)
    /// After each step of each photo.
    func step(_ step: StepRecord)
    /// About once a second while photos are in flight.
    func progress(_ progress: RunProgress)
    /// The first SIGINT/SIGTERM, `--fail-fast`, `--max-failures`, or the run's output closed: no new photos start.
    func stopping(_ reason: StopReason)
    /// After the last photo, with the counts that were recorded.
    func runFinished(_ summary: RunSummary)
}

/// A snapshot of a run's progress.
public struct RunProgress: Sendable {
    /// Photos whose chain has ended (done, skipped or failed).
    public var done: Int
    public var total: Int
    /// Photos with at least one failed step.
    public var failed: Int
    public var seconds: Double

    public var photosPerSecond: Double { seconds > 0 ? Double(done) / seconds : 0 }
    /// Seconds left at the current rate, or nil before there is a rate.
    public var etaSeconds: Double? {
        guard done > 0, total >= done else { return nil }
        return Double(total - done) / photosPerSecond
    }
}

/// Why a run stops starting new photos.
public enum StopReason: Sendable, Equatable {
    case signal(Int32)
    case failFast
    case maxFailures(Int)
    /// A write to the output the run was asked for failed (closed, full or broken: "standard output closed
    /// (Broken pipe)"). Handled as a first SIGINT, with its own exit status.
    case outputClosed(String)

    /// The run's status in the catalogue and the `run-finished` event.
    public var status: String {
        switch self {
        case .signal, .outputClosed: "interrupted"
        case .failFast, .maxFailures: "failed"
        }
    }
}
