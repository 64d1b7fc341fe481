import Foundation
import Synchronization
import System

/// Where album's words go: results on stdout, messages on stderr. Lines are written whole, from any thread.
///
/// Every write is `write(2)`, looped over partial writes and `EINTR`, and its result is checked: a stream that is
/// closed, full or broken (`EBADF`, `ENOSPC`, `EPIPE`; SIGPIPE is ignored) never crashes album. The first failure
/// of each stream is kept (`failure(of:)`), later writes to it are dropped, and the handler a run installs
/// (`onFailure`) hears of it once, so the run can stop as a first SIGINT would. (Foundation's `FileHandle.write`
/// traps on such an error, which ended album with SIGILL.)
///
/// ```
/// Console.prepareStandardStreams()        // at start: closed 0–2 reopened on /dev/null, SIGPIPE ignored
/// Console.out("a line")                   // never traps
/// if let failure = Console.failure(of: .standardOutput) { … exit 3 … }
/// ```
public enum Console {
    /// stdout or stderr.
    public enum Stream: Int32, Sendable, CaseIterable {
        case standardOutput = 1
        case standardError = 2

        /// "standard output", for messages.
        public var name: String { self == .standardOutput ? "standard output" : "standard error" }
    }

    /// Why a stream stopped taking album's output.
    public struct Failure: Sendable, Equatable {
        public var stream: Stream
        /// The `errno` of the failed write.
        public var code: Int32

        /// "standard output closed (Broken pipe)": the words of album's stop message.
        public var description: String { "\(stream.name) closed (\(SystemError.reason(for: code)))" }
        /// The reader of a pipe went away (`EPIPE`): `album ls | head -3` once head has its lines.
        public var isBrokenPipe: Bool { code == SystemError.brokenPipeCode }
    }

    private struct State {
        var failures: [Stream: Failure] = [:]
        /// Descriptors that were closed when album started: now /dev/null, but album's output to them is lost.
        var closedAtStart: Set<Stream> = []
    }

    private static let state = Mutex(State())
    private static let handler = Mutex<(@Sendable (Failure) -> Void)?>(nil)

    /// `text` and a line feed on stdout, every control character in it but line feeds and tabs written out
    /// (`String.shownKeepingLines`): whatever a line quotes, it cannot send a terminal a control sequence.
    public static func out(_ text: String) { write(text.shownKeepingLines + "\n", to: .standardOutput) }
    /// The same on stderr.
    public static func err(_ text: String) { write(text.shownKeepingLines + "\n", to: .standardError) }

    /// Text as it is, with no newline added and no control character written out: only for album's own control
    /// sequences (the progress line, colour), around text already `shown`.
    public static func raw(_ text: String, toStandardError: Bool) {
        write(text, to: toStandardError ? .standardError : .standardOutput)
    }

    /// For a process about to `_exit` (a second signal): `text` on stderr without waiting, neither for Console's
    /// lock (a write blocked on a full stdout or stderr holds it) nor for stderr itself; lost when stderr cannot
    /// take it at once.
    public static func errWithoutWaiting(_ text: String) {
        StandardStreams.writeWithoutWaiting(Array((text + "\n").utf8), to: Stream.standardError.rawValue)
    }

    /// `album: error: …` on stderr.
    public static func error(_ text: String) { err("album: error: \(text)") }

    /// Makes descriptors 0–2 safe to use, once at start, before anything else opens a file.
    ///
    /// A descriptor among 0–2 that is closed is reopened on `/dev/null`, so that no file album opens later (the
    /// catalogue's lock, the database) takes its number and receives album's output. Output to stdout or stderr
    /// that was closed still counts as failed (`EBADF`), as it would have without the reopening. SIGPIPE is
    /// ignored, so a reader that goes away (`album … | head -1`) is a write error (`EPIPE`), not a silent death.
    public static func prepareStandardStreams() {
        ProcessSignals.ignoreBrokenPipe()
        let closed = Set(StandardStreams.reopenClosedOnDevNull().compactMap(Stream.init(rawValue:)))
        state.withLock { $0.closedAtStart = closed }
    }

    /// The first write to `stream` that failed, if any.
    public static func failure(of stream: Stream) -> Failure? { state.withLock { $0.failures[stream] } }

    /// Called once per stream, on the writing thread, after its first failed write (outside Console's lock, so
    /// the handler may write to the other stream). nil to remove it.
    public static func onFailure(_ body: (@Sendable (Failure) -> Void)?) { handler.withLock { $0 = body } }

    private static func write(_ text: String, to stream: Stream) {
        let failure: Failure? = state.withLock { state in
            guard state.failures[stream] == nil else { return nil }
            let code = state.closedAtStart.contains(stream)
                ? SystemError.badDescriptorCode : StandardStreams.writeAll(Array(text.utf8), to: stream.rawValue)
            guard let code else { return nil }
            let failure = Failure(stream: stream, code: code)
            state.failures[stream] = failure
            return failure
        }
        if let failure, let body = handler.withLock({ $0 }) { body(failure) }
    }
}
