import Foundation

/// The end-of-run summary on a terminal: a table per stage, the first failures, and where to look next.
enum SummaryText {
    static func render(_ summary: RunSummary, job: Job) -> String {
        let wall = max(summary.seconds, 0.001)
        var lines = ["album: run \(summary.run) of job '\(job.name)' \(summary.status) in \(TextReporter.duration(summary.seconds)) (\(String(format: "%.1f", summary.seconds)) s)", ""]
        lines.append("  stage        done  skipped  failed   photos/s   stage time")
        for stage in StageName.allCases {
            guard let counts = summary.counts[stage] else { continue }
            let total = counts.values.reduce(0, +)
            let cells = [counts[.done] ?? 0, counts[.skipped] ?? 0, counts[.failed] ?? 0].map(String.init)
            let rate = String(format: "%.1f", Double(total) / wall)
            let time = String(format: "%.1f s", summary.stageSeconds[stage] ?? 0)
            lines.append("  " + stage.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0)
                         + cells[0].leftPadded(6) + cells[1].leftPadded(9) + cells[2].leftPadded(8)
                         + rate.leftPadded(11) + time.leftPadded(13))
        }
        if summary.counts.isEmpty { lines.append("  (no photos)") }
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
                lines.append("  \(failure.stage.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0)) \(failure.path): \(failure.reason)")
            }
            if summary.failures.count > 20 { lines.append("  … and \(summary.failures.count - 20) more") }
        }
        if let stop = summary.stop {
            lines.append("")
            lines.append("stopped early: \(stop.explanation.components(separatedBy: ":").first ?? "")\(summary.abandoned ? "; photos still in flight after the grace period were abandoned" : ""). Run the job again to resume.")
        }
        lines.append("")
        lines.append("catalogue: \(job.catalogue)")
        lines.append("  every step, failures included, is recorded there: album ls --catalogue \(job.catalogue)")
        return lines.joined(separator: "\n")
    }
}

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
