/// How `album run` shows its progress on stderr (`--progress[=live|plain]`).
///
/// ```
/// live:  "\r\u{1B}[2Kalbum: 12/41 photos  3.4/s  ETA 9s  1 failed", redrawn in place
/// plain: "album: progress: 12/41 photos, 1 failed, 3.4/s, 3.5 s", a whole line every `plainSeconds`
/// ```
/// The live line needs a terminal that can draw it: elsewhere (a pipe, a file, `TERM=dumb`) `live` gives plain lines,
/// so no control sequence ever reaches a stream that is not a terminal.
public enum ProgressForm: String, Sendable, CaseIterable {
    /// One line redrawn in place where stderr can draw it, plain lines elsewhere (`--progress` alone).
    case live
    /// Whole lines, one every `plainSeconds` (and at the first tick), anywhere: for CI logs.
    case plain

    /// The time between two plain lines.
    static let plainSeconds = 10.0
}
