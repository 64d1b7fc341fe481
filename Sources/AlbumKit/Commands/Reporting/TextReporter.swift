import Foundation
import Synchronization

/// The run as people see it on stderr: a live progress line (on a terminal, or with `--progress`), each failure as
/// it happens (every step with `--verbose`), and the end-of-run summary.
final class TextReporter: RunObserver {
    struct Settings {
        var progress: Bool
        var verbose: Bool
        var summary: Bool
        var colour: Bool
        var job: Job
    }

    private let settings: Settings
    /// The progress line currently drawn, to clear and redraw around other output.
    private let statusLine = Mutex<String?>(nil)

    init(_ settings: Settings) { self.settings = settings }

    // @unchecked is not needed: `settings` is immutable and the status line is behind a Mutex.

    func runStarted(run: Int64, job: String, photos: Int) {
        if settings.verbose { line("album: run \(run) of job '\(job)': \(photos) photo\(photos == 1 ? "" : "s")") }
    }

    func step(_ step: StepRecord) {
        guard settings.verbose || step.status == .failed else { return }
        let detail = step.error.map { ": \($0)" } ?? ""
        var text = "album: \(step.stage.rawValue) \(step.status.rawValue): \(step.path)\(detail)"
        if step.status == .failed && settings.colour { text = "\u{1B}[31m\(text)\u{1B}[0m" }
        line(text)
    }

    func progress(_ progress: RunProgress) {
        guard settings.progress else { return }
        var text = "album: \(progress.done)/\(progress.total) photos  \(String(format: "%.1f", progress.photosPerSecond))/s"
        if let eta = progress.etaSeconds { text += "  ETA \(TextReporter.duration(eta))" }
        if progress.failed > 0 { text += "  \(progress.failed) failed" }
        statusLine.withLock { current in
            current = text
            Console.raw("\r\u{1B}[2K" + text, toStandardError: true)
        }
    }

    func stopping(_ reason: StopReason) { line("album: \(reason.explanation)") }

    func runFinished(_ summary: RunSummary) {
        clearStatus()
        if settings.summary { Console.err(SummaryText.render(summary, job: settings.job)) }
    }

    /// Writes a whole line, keeping the progress line below it.
    private func line(_ text: String) {
        statusLine.withLock { current in
            if let current {
                Console.raw("\r\u{1B}[2K" + text + "\n" + current, toStandardError: true)
            } else {
                Console.err(text)
            }
        }
    }

    private func clearStatus() {
        statusLine.withLock { current in
            if current != nil { Console.raw("\r\u{1B}[2K", toStandardError: true) }
            current = nil
        }
    }

    static func duration(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return s >= 3600 ? "\(s / 3600)h\(String(format: "%02d", s % 3600 / 60))m" : s >= 60 ? "\(s / 60)m\(String(format: "%02d", s % 60))s" : "\(s)s"
    }
}
