import Foundation
import Core
import JobFile
import Run
import Stages

/// The end-of-run summary on a terminal: a table per stage, the first failures, and where to look next.
///
/// ```
/// album: run 3 of job 'demo' ok in 18.4 s (catalogue run 6)
///
///   stage        done  skipped  failed   busy time   photos per busy s
///   import         12        0       0       4.1 s                 2.9
///   thumbnail      12        0       0      29.8 s                 0.4
///   busy time: the stage's own work (its done and failed steps), summed over its 2 workers;
///   photos per busy s: its done steps over the busy time, one worker's pace in the stage
/// ```
enum SummaryText {
    static func render(_ summary: RunSummary, job: Job) -> String {
        var lines = [headline(summary, job: job), ""]
        lines.append("  stage        done  skipped  failed   busy time   photos per busy s")
        for stage in StageRegistry.stepNames {
            guard let counts = summary.counts[stage] else { continue }
            let cells = [counts[.done] ?? 0, counts[.skipped] ?? 0, counts[.failed] ?? 0].map(String.init)
            let rate = summary.photosPerBusySecond(stage).map { String(format: "%.1f", $0) } ?? "-"
            let time = String(format: "%.1f s", summary.stageSeconds[stage] ?? 0)
            lines.append("  " + stage.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0)
                         + cells[0].leftPadded(6) + cells[1].leftPadded(9) + cells[2].leftPadded(8)
                         + time.leftPadded(12) + rate.leftPadded(20))
        }
        if summary.counts.isEmpty {
            lines.append("  (no photos)")
        } else {
            let workers = summary.workers == 1 ? "its one worker" : "its \(summary.workers) workers"
            lines.append("  busy time: the stage's own work (its done and failed steps), summed over \(workers);")
            lines.append("  photos per busy s: its done steps over the busy time, one worker's pace in the stage")
        }
        let passedOver = [summary.passedOver.derivedSentence, summary.passedOver.ignoredSentence].compactMap { $0 }
        if !passedOver.isEmpty { lines.append("") }
        lines += passedOver
        let states = StatesText.sentences(summary.states)
        if !states.isEmpty { lines.append("") }
        lines += states
        if !summary.failures.isEmpty {
            lines.append("")
            lines.append("failed (\(summary.failures.count)):")
            for failure in summary.failures.prefix(20) {
                lines.append("  \(failure.stage.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0)) \(failure.path.shown): \(failure.reason.shown)")
            }
            if summary.failures.count > 20 { lines.append("  … and \(summary.failures.count - 20) more") }
        }
        if let stop = summary.stop {
            lines.append("")
            lines.append("stopped early: \(stop.explanation.components(separatedBy: ":").first ?? "")\(summary.abandoned ? "; photos still in flight after the grace period were abandoned" : ""). Run the job again to resume.")
        }
        lines.append("")
        lines.append("catalogue: \(job.catalogue.shown)")
        lines.append("  every step, failures included, is recorded there: album ls --catalogue \(job.catalogue.shown)")
        return lines.joined(separator: "\n")
    }

    /// `album: run 3 of job 'demo' ok in 18.4 s (catalogue run 6)`: the job's own run number, how the run ended, its
    /// one duration, and the catalogue's id of the run (`album runs`, `album report --run`).
    static func headline(_ summary: RunSummary, job: Job) -> String {
        let number = summary.jobRun.map { "run \($0) of job '\(job.name.shown)'" } ?? "a run of job '\(job.name.shown)'"
        return "album: \(number) \(summary.status) in \(duration(summary.seconds)) (catalogue run \(summary.run))"
    }

    /// A run's duration said once: tenths of a second under a minute (`18.4 s`), then minutes (`2m05s`, `1h02m`).
    static func duration(_ seconds: Double) -> String {
        seconds < 59.95 ? String(format: "%.1f s", max(seconds, 0)) : TextReporter.duration(seconds)
    }
}

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
