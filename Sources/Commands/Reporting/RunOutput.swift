import Foundation
import System
import Core
import JobFile
import Run

/// How a run talks to people and machines: the flags `album run` and `album import` share.
struct RunOutput: Sendable {
    /// `--log-format`.
    var logFormat = LogFormat.text
    /// `--verbose`: every step, and libvips' warnings.
    var verbose = false
    /// `--progress[=live|plain]`: progress even when stderr is not a terminal; nil when not given.
    var progress: ProgressForm? = nil
    /// `-q`/`--quiet`: no progress and no summary; each failure is still said as it happens.
    var quiet = false
    /// The variables the reporters read (`TERM`, `NO_COLOR`, `FORCE_COLOR`, `GITHUB_WORKSPACE`, `GITHUB_STEP_SUMMARY`).
    var environment = ProcessInfo.processInfo.environment

    /// The streams that carry what the run was asked for: a failed write to one of them stops the run (exit 3).
    /// JSON events and annotations on stdout; for text, and for github's summary, stderr. A failure on another
    /// stream (stderr's failure lines beside JSON events) loses those lines only.
    var mainStreams: Set<Console.Stream> {
        switch logFormat {
        case .text: [.standardError]
        case .json: [.standardOutput]
        case .github: [.standardOutput, .standardError]
        }
    }

    /// The progress stderr shows: on a terminal by default, elsewhere when asked; live only where it can be drawn
    /// (`draws`: a terminal whose `TERM` is not `dumb`).
    func progressForm(terminal: Bool, draws: Bool) -> ProgressForm? {
        guard !quiet, let asked = progress ?? (terminal ? .live : nil) else { return nil }
        return asked == .live && draws ? .live : .plain
    }

    /// Whether failures are red: never with `NO_COLOR` (no-color.org), always with `FORCE_COLOR` (force-color.org:
    /// set and not empty, `0` or `false`; a CI log that shows colour), else on a terminal that draws.
    static func colour(draws: Bool, environment: [String: String]) -> Bool {
        if let no = environment["NO_COLOR"], !no.isEmpty { return false }
        if let force = environment["FORCE_COLOR"], !["", "0", "false"].contains(force) { return true }
        return draws
    }

    /// The observers for these flags: text on stderr always (summary off for JSON), plus JSON or annotations.
    func reporters(for job: Job) -> any RunObserver {
        let terminal = StandardStreams.isTerminal(StandardStreams.error)
        // Control sequences (colour, the redrawn line) only for a terminal that can take them: never for a pipe or
        // a file, nor for TERM=dumb.
        let draws = terminal && environment["TERM"] != "dumb"
        let colour = RunOutput.colour(draws: draws, environment: environment)
        let text = TextReporter(.init(progress: progressForm(terminal: terminal, draws: draws), verbose: verbose,
                                      summary: logFormat != .json && !quiet, colour: colour, job: job))
        switch logFormat {
        case .text: return text
        case .json: return Reporters(all: [JSONReporter(), text])
        case .github: return Reporters(all: [GitHubReporter(job: job, environment: environment), text])
        }
    }
}
