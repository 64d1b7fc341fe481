import Foundation
import System

/// How a run talks to people and machines: the flags `album run` and `album import` share.
struct RunOutput: Sendable {
    /// `--log-format`.
    var logFormat = LogFormat.text
    /// `--verbose`: every step, and libvips' warnings.
    var verbose = false
    /// `--progress`: the progress line even when stderr is not a terminal.
    var forceProgress = false

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

    /// The observers for these flags: text on stderr always (summary off for JSON), plus JSON or annotations.
    func reporters(for job: Job) -> any RunObserver {
        let terminal = StandardStreams.isTerminal(StandardStreams.error)
        let colour = terminal && ProcessInfo.processInfo.environment["NO_COLOR"].map(\.isEmpty) ?? true
        let text = TextReporter(.init(progress: forceProgress || terminal, verbose: verbose,
                                      summary: logFormat != .json, colour: colour, job: job))
        switch logFormat {
        case .text: return text
        case .json: return Reporters(all: [JSONReporter(), text])
        case .github: return Reporters(all: [GitHubReporter(), text])
        }
    }
}
