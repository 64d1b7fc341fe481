/// Decoded source: Unicode scalars with every line break (CR, LF, CRLF)
/// normalised to a single `"\n"`, plus the index of each line start.
///
/// Positions inside the parser are indices into `chars`; this type turns
/// them into 1-based line/column locations and recovers line text for
/// diagnostics.
struct SourceText {
    /// The scalars of the document, line breaks normalised to `"\n"`.
    let chars: [Unicode.Scalar]
    /// Index in `chars` of the first scalar of each line.
    let lineStarts: [Int]

    package init(chars: [Unicode.Scalar]) {
        self.chars = chars
        var starts = [0]
        for (i, c) in chars.enumerated() where c == "\n" {
            starts.append(i + 1)
        }
        self.lineStarts = starts
    }

    /// 0-based line index containing position `pos` (which may equal `chars.count`).
    func lineIndex(of pos: Int) -> Int {
        var lo = 0, hi = lineStarts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if lineStarts[mid] <= pos { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    /// Index of the first scalar of the line containing `pos`.
    func lineStart(of pos: Int) -> Int {
        lineStarts[lineIndex(of: pos)]
    }

    /// 0-based column of `pos` in its line.
    package func column(of pos: Int) -> Int {
        pos - lineStart(of: pos)
    }

    /// 1-based location of `pos`.
    package func location(of pos: Int) -> SourceLocation {
        let line = lineIndex(of: pos)
        return SourceLocation(line: line + 1, column: pos - lineStarts[line] + 1)
    }

    /// Text of the 1-based `line`, without its line break.
    func lineText(_ line: Int) -> String {
        guard line >= 1, line <= lineStarts.count else { return "" }
        let start = lineStarts[line - 1]
        var end = start
        while end < chars.count, chars[end] != "\n" { end += 1 }
        var s = String.UnicodeScalarView()
        s.append(contentsOf: chars[start..<end])
        return String(s)
    }
}
