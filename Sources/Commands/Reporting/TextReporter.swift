import Foundation
import Synchronization
import Core
import JobFile
import Run
import Catalogue

/// The run as people see it on stderr: its progress (a live line on a terminal, plain lines elsewhere with
/// `--progress`), each failure as it happens (every step with `--verbose`), and the end-of-run summary.
final class TextReporter: RunObserver {
    struct Settings {
        /// nil: no progress; `.live` only where stderr can draw it (`RunOutput` decides).
        var progress: ProgressForm?
        var verbose: Bool
        var summary: Bool
        var colour: Bool
        var job: Job
    }

    private let settings: Settings
    /// The progress line currently drawn, to clear and redraw around other output.
    private let statusLine = Mutex<String?>(nil)
    /// When the last plain progress line was written (the run's seconds), nil before the first.
    private let lastPlain = Mutex<Double?>(nil)

    init(_ settings: Settings) { self.settings = settings }

    // @unchecked is not needed: `settings` is immutable and the mutable state is behind Mutexes.

    func runStarted(run: Int64, job: String, photos: Int) {
        if settings.verbose { line("album: run \(run) of job '\(job.shown)': \(photos) photo\(photos == 1 ? "" : "s")") }
    }

    func step(_ step: StepRecord) {
        // A failure, and a warning on a step that went on (a sidecar that could not be read), are always said.
        guard settings.verbose || step.status == .failed || step.error.map(TextReporter.warns) == true else { return }
        let detail = step.error.map { ": \($0)" } ?? ""
        // One line, whatever the path and the error hold (`shown`): a line feed in a name starts no line of its own.
        var text = "album: \(step.stage.rawValue) \(step.status.rawValue): \(step.path)\(detail)".shown
        if step.status == .failed && settings.colour { text = "\u{1B}[31m\(text)\u{1B}[0m" }
        line(text)
    }

    /// Whether a step's message holds a warning (`warning: `). Searched as bytes by hand: Foundation's search was
    /// 1.5 % of a quiet no-op rerun's CPU (one search per skipped step), the standard library's generic one 15 %.
    static func warns(_ message: String) -> Bool {
        var message = message
        return message.withUTF8 { bytes in
            let needle: StaticString = "warning: "
            let count = needle.utf8CodeUnitCount
            guard bytes.count >= count else { return false }
            return needle.withUTF8Buffer { needle in
                (0...(bytes.count - count)).contains { start in
                    bytes[start] == needle[0] && (1..<count).allSatisfy { bytes[start + $0] == needle[$0] }
                }
            }
        }
    }

    func progress(_ progress: RunProgress) {
        switch settings.progress {
        case nil: return
        case .plain?:
            // The first tick, then one line per period: a CI log gets a line now and then, not one a second.
            let due = lastPlain.withLock { last in
                guard last.map({ progress.seconds - $0 >= ProgressForm.plainSeconds - 0.5 }) ?? true else { return false }
                last = progress.seconds
                return true
            }
            if due { Console.err(TextReporter.plainLine(progress)) }
        case .live?:
            var text = "album: \(progress.done)/\(progress.total) photos  \(String(format: "%.1f", progress.photosPerSecond))/s"
            if let eta = progress.etaSeconds { text += "  ETA \(TextReporter.duration(eta))" }
            if progress.failed > 0 { text += "  \(progress.failed) failed" }
            statusLine.withLock { current in
                current = text
                Console.raw("\r\u{1B}[2K" + text, toStandardError: true)
            }
        }
    }

    /// `album: progress: 40/120 photos, 2 failed, 3.4/s, 12.3 s`: a whole line, for logs.
    static func plainLine(_ progress: RunProgress) -> String {
        "album: progress: \(progress.done)/\(progress.total) photos, \(progress.failed) failed, "
            + "\(String(format: "%.1f", progress.photosPerSecond))/s, \(String(format: "%.1f", progress.seconds)) s"
    }

    func stopping(_ reason: StopReason) { line("album: \(reason.explanation)".shownKeepingLines) }

    func runFinished(_ summary: RunSummary) {
        clearStatus()
        if settings.summary { Console.err(TextReporter.visible(SummaryText.render(summary, job: settings.job))) }
    }

    /// Writes a whole line, keeping the progress line below it. `text` is sent as it is (`Console.raw`, so that its
    /// colour works): whatever it quotes must be `shown` already.
    private func line(_ text: String) {
        statusLine.withLock { current in
            if let current {
                Console.raw("\r\u{1B}[2K" + text + "\n" + current, toStandardError: true)
            } else {
                Console.raw(text + "\n", toStandardError: true)
            }
        }
    }

    private func clearStatus() {
        statusLine.withLock { current in
            if current != nil { Console.raw("\r\u{1B}[2K", toStandardError: true) }
            current = nil
        }
    }

    /// `text` with its control characters shown as `\x1B`, `\r`…: a file name or an error message holding ESC or
    /// CR cannot move the cursor, recolour a terminal, or put a control sequence into a log. Line feeds and tabs stay
    /// (`String.shownKeepingLines`; a value quoted in a line is `shown` whole, line feeds too).
    static func visible(_ text: String) -> String { text.shownKeepingLines }

    static func duration(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return s >= 3600 ? "\(s / 3600)h\(String(format: "%02d", s % 3600 / 60))m" : s >= 60 ? "\(s / 60)m\(String(format: "%02d", s % 60))s" : "\(s)s"
    }
}
