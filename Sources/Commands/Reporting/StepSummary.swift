import Foundation
import Core
import JobFile
import Run
import Stages

/// The run as a GitHub Actions job summary (`GITHUB_STEP_SUMMARY`): Markdown, appended after other steps' text.
///
/// ```
/// ### album: run 3 of job 'demo': failed (catalogue run 7)
///
/// | stage | done | skipped | failed |
/// |:--|--:|--:|--:|
/// | import | 118 | 0 | 2 |
///
/// **2 failed:**
///
/// | stage | file | reason |
/// |:--|:--|:--|
/// | import | photos/a.jpg | not an image: it is an HTML page |
///
/// 9.9 s; catalogue /work/album
/// ```
enum StepSummary {
    /// The most failures listed; the rest are counted. GitHub takes up to 1 MiB per step's summary.
    static let listedFailures = 50
    /// The longest reason shown, in characters.
    static let reasonLength = 400

    /// The summary of `summary`, each file named by `path` (relative to the workspace when under it).
    static func markdown(_ summary: RunSummary, job: Job, path: (String) -> String) -> String {
        let number = summary.jobRun.map { "run \($0) of job" } ?? "a run of job"
        var lines = ["### album: \(number) '\(cell(job.name))': \(summary.status) (catalogue run \(summary.run))", ""]
        if summary.counts.isEmpty {
            lines.append("No photos.")
        } else {
            lines += ["| stage | done | skipped | failed |", "|:--|--:|--:|--:|"]
            for stage in StageRegistry.stepNames {
                guard let counts = summary.counts[stage] else { continue }
                let cells = [counts[.done] ?? 0, counts[.skipped] ?? 0, counts[.failed] ?? 0].map(String.init)
                lines.append("| \(stage.rawValue) | " + cells.joined(separator: " | ") + " |")
            }
        }
        if !summary.failures.isEmpty {
            lines += ["", "**\(summary.failures.count) failed:**", "", "| stage | file | reason |", "|:--|:--|:--|"]
            for failure in summary.failures.prefix(listedFailures) {
                var reason = failure.reason
                if reason.count > reasonLength { reason = String(reason.prefix(reasonLength)) + "…" }
                lines.append("| \(failure.stage.rawValue) | \(cell(path(failure.path))) | \(cell(reason)) |")
            }
            if summary.failures.count > listedFailures {
                lines += ["", "… and \(summary.failures.count - listedFailures) more: `album ls --failed last-run` lists them all."]
            }
        }
        if let stop = summary.stop {
            lines += ["", "Stopped early: \(cell(stop.explanation.components(separatedBy: ":").first ?? "")). Run the job again to resume."]
        }
        lines += ["", "\(SummaryText.duration(summary.seconds)); catalogue \(cell(path(job.catalogue)))", ""]
        return lines.joined(separator: "\n") + "\n"
    }

    /// `text` as one table cell of literal text: Markdown's punctuation backslash-escaped (CommonMark allows it
    /// before any ASCII punctuation), line breaks as spaces, other control characters shown as `\x1B`.
    static func cell(_ text: String) -> String {
        TextReporter.visible(text.replacingOccurrences(of: "\r\n", with: " ")).escapingScalars { scalar in
            switch scalar {
            case "\n", "\r": " "
            case "\\", "|", "`", "*", "_", "[", "]", "<", ">", "&", "#", "~", "!": "\\" + String(scalar)
            default: nil
            }
        }
    }
}
