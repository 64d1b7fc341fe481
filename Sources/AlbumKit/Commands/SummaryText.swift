import Foundation

/// The end-of-run summary on a terminal: a table per stage, the first failures, and where to look next.
enum SummaryText {
    static func render(_ summary: RunSummary, job: Job) -> String {
        var lines = ["", "album: run \(summary.run) of job '\(job.name)' \(summary.status) in \(String(format: "%.1f", summary.seconds)) s", ""]
        lines.append("  stage        done  skipped  failed")
        for stage in StageName.allCases {
            guard let counts = summary.counts[stage] else { continue }
            let row = [StepRecord.Status.done, .skipped, .failed].map { String(counts[$0] ?? 0) }
            lines.append("  " + stage.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0)
                         + row[0].leftPadded(6) + row[1].leftPadded(9) + row[2].leftPadded(8))
        }
        if !summary.failures.isEmpty {
            lines.append("")
            lines.append("failed (\(summary.failures.count)):")
            for failure in summary.failures.prefix(20) {
                lines.append("  \(failure.stage.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0)) \(failure.path): \(failure.reason)")
            }
            if summary.failures.count > 20 { lines.append("  … and \(summary.failures.count - 20) more") }
        }
        lines.append("")
        lines.append("catalogue: \(job.catalogue)   (album ls --catalogue \(job.catalogue))")
        return lines.joined(separator: "\n")
    }
}

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
