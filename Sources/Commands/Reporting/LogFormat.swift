import Core
import Run
import Catalogue

/// How `album run` reports a run (`--log-format`).
public enum LogFormat: String, Sendable, CaseIterable {
    /// For people: a live progress line on a terminal, failures as they happen, a summary at the end (stderr).
    case text
    /// JSON Lines on stdout, one event per line (docs/events.md); the summary stays off stderr.
    case json
    /// GitHub Actions `::error` annotations on stdout for failures (paths relative to `GITHUB_WORKSPACE`), the text
    /// summary on stderr, and a Markdown job summary appended to `GITHUB_STEP_SUMMARY` when it is set.
    case github
}

/// Sends every event to several observers in turn.
struct Reporters: RunObserver {
    let all: [any RunObserver]

    func runStarted(run: Int64, job: String, photos: Int) { for r in all { r.runStarted(run: run, job: job, photos: photos) } }
    func step(_ step: StepRecord) { for r in all { r.step(step) } }
    func progress(_ progress: RunProgress) { for r in all { r.progress(progress) } }
    func stopping(_ reason: StopReason) { for r in all { r.stopping(reason) } }
    func runFinished(_ summary: RunSummary) { for r in all { r.runFinished(summary) } }
}

extension StopReason {
    /// A sentence for people.
    var explanation: String {
        switch self {
        case .signal(let number):
            "\(number == 15 ? "SIGTERM" : "SIGINT") received: finishing the photos in flight, starting no new ones (send it again to stop at once)"
        case .failFast: "a photo failed and --fail-fast is set: finishing the photos in flight, starting no new ones"
        case .maxFailures(let n): "\(n) photo\(n == 1 ? "" : "s") failed (--max-failures \(n)): finishing the photos in flight, starting no new ones"
        case .outputClosed(let what): "\(what): finishing the photos in flight, starting no new ones"
        }
    }
}
