/// Thrown internally to stop parsing after a structural error (the error
/// itself has already been recorded in `Parser.diagnostics`).
struct ParseAbort: Error {}

/// The recursive-descent parser's state and low-level helpers.
///
/// Positions are indices into `chars` (line breaks normalised to `"\n"`).
/// Recursion is bounded: every collection checks `depth` against
/// `YAMLParser.maxDepth` before descending.
final class Parser {
    package let text: SourceText
    let chars: [Unicode.Scalar]
    package let file: String
    var pos = 0
    package var diagnostics: [Diagnostic] = []
    /// Lines (0-based) already reported for tab indentation.
    var tabLines: Set<Int> = []

    package init(text: SourceText, file: String) {
        self.text = text
        self.chars = text.chars
        self.file = file
    }

    // MARK: character classes

    /// The scalar at `i`, or `nil` past the end.
    @inline(__always) func ch(_ i: Int) -> Unicode.Scalar? { i < chars.count ? chars[i] : nil }
    /// The scalar at the current position.
    package var cur: Unicode.Scalar? { ch(pos) }
    /// True at the end of input or a line break.
    func isEOL(_ i: Int) -> Bool { i >= chars.count || chars[i] == "\n" }
    /// True for space or tab.
    func isBlank(_ i: Int) -> Bool { i < chars.count && (chars[i] == " " || chars[i] == "\t") }
    /// True for space, tab, line break or end of input.
    func isWSOrEnd(_ i: Int) -> Bool { isEOL(i) || isBlank(i) }
    /// 0-based column of `i`.
    package func column(_ i: Int) -> Int { text.column(of: i) }

    /// True if a `---` or `...` document marker starts at `i` (column 0).
    func isDocumentMarker(_ i: Int) -> Bool {
        guard i + 2 < chars.count, column(i) == 0 else { return false }
        let c = chars[i]
        guard c == "-" || c == "." else { return false }
        return chars[i + 1] == c && chars[i + 2] == c && isWSOrEnd(i + 3)
    }

    /// True if `-` at `i` starts a block sequence entry.
    func isSequenceEntry(_ i: Int) -> Bool { ch(i) == "-" && isWSOrEnd(i + 1) }

    /// Text of `chars[range]`.
    package func string(_ range: Range<Int>) -> String {
        var s = String.UnicodeScalarView()
        s.append(contentsOf: chars[range])
        return String(s)
    }

    // MARK: diagnostics

    /// Builds a diagnostic for position `i`.
    package func diagnostic(_ message: String, at i: Int) -> Diagnostic {
        let loc = text.location(of: min(i, chars.count))
        return Diagnostic(file: file, location: loc, message: message, sourceLine: text.lineText(loc.line))
    }

    /// Most diagnostics kept from one file; later ones are dropped.
    static let maxDiagnostics = 100

    /// Records a non-fatal error and continues (up to `maxDiagnostics`).
    package func report(_ message: String, at i: Int) {
        if diagnostics.count < Parser.maxDiagnostics {
            diagnostics.append(diagnostic(message, at: i))
        } else if diagnostics.count == Parser.maxDiagnostics {
            diagnostics.append(diagnostic("too many errors; stopped reporting after \(Parser.maxDiagnostics)", at: i))
        }
    }

    /// Records a fatal error; the caller throws the returned value.
    package func fail(_ message: String, at i: Int) -> ParseAbort {
        report(message, at: i)
        return ParseAbort()
    }

    /// Throws when `depth` exceeds the nesting limit.
    func checkDepth(_ depth: Int, at i: Int) throws {
        if depth > YAMLParser.maxDepth {
            throw fail("nesting is deeper than the limit of \(YAMLParser.maxDepth) levels", at: i)
        }
    }

    /// Builds a node at position `i`.
    package func node(_ value: Node.Value, at i: Int) -> Node {
        Node(value: value, location: text.location(of: min(i, chars.count)))
    }

    // MARK: whitespace

    /// Content found by `nextContent`: its index and 0-based indentation.
    package struct Content {
        package var index: Int
        package var indent: Int
    }

    /// Finds the next content character in block context without moving
    /// `pos`: skips blanks, comments and empty lines. Reports (once per line)
    /// tabs used for indentation. `nil` at end of input.
    func nextContent() -> Content? {
        var i = pos
        var atLineStart = i == 0 || ch(i - 1) == "\n"
        while i < chars.count {
            let c = chars[i]
            if c == "\n" {
                i += 1; atLineStart = true
            } else if c == " " {
                i += 1
            } else if c == "\t" {
                if atLineStart {
                    var j = i
                    while isBlank(j) { j += 1 }
                    if !isEOL(j) && ch(j) != "#" {
                        reportTab(at: i)
                        return Content(index: j, indent: column(j))
                    }
                    i = j
                } else {
                    i += 1
                }
            } else if c == "#" {
                while i < chars.count, chars[i] != "\n" { i += 1 }
            } else {
                return Content(index: i, indent: column(i))
            }
        }
        return nil
    }

    /// Reports a tab used for indentation, once per line; `detail`, when
    /// given, says why this tab counts as indentation.
    func reportTab(at i: Int, detail: String? = nil) {
        let line = text.lineIndex(of: i)
        if !tabLines.contains(line) {
            tabLines.insert(line)
            report("tabs are not allowed for indentation; use spaces" + (detail.map { " (\($0))" } ?? ""), at: i)
        }
    }

    /// Skips spaces and tabs on the current line.
    func skipBlanks() {
        while isBlank(pos) { pos += 1 }
    }

    /// After a node on the current line: allows blanks and a comment, then
    /// requires the end of the line.
    func expectLineEnd() throws {
        skipBlanks()
        guard let c = cur, c != "\n" else { return }
        if c == "#" {
            if pos == 0 || isWSOrEnd(pos - 1) {
                while !isEOL(pos) { pos += 1 }
                return
            }
            throw fail("a comment must be separated from the value by a space", at: pos)
        }
        if c == ":" && isWSOrEnd(pos + 1) {
            throw fail("mapping values are not allowed here; a value cannot start a nested mapping on the same line", at: pos)
        }
        throw fail("unexpected '\(String(c))' after the value; expected the end of the line", at: pos)
    }
}
