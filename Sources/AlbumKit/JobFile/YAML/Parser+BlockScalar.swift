/// Literal (`|`) and folded (`>`) block scalars with chomping (`-`, `+`)
/// and indentation (`1`-`9`) indicators.
///
/// The content algorithm mirrors the reference implementation's
/// (PyYAML/ruamel `scan_block_scalar`), which follows the YAML 1.2 rules.
extension Parser {
    private enum Chomping { case strip, clip, keep }

    /// Parses a block scalar whose indicator is at `pos`, nested in a block
    /// of indentation `n` (-1 at the document root).
    func parseBlockScalar(parentIndent n: Int) throws -> Node {
        let start = pos
        let folded = chars[pos] == ">"
        pos += 1
        var chomping = Chomping.clip
        var explicit: Int?
        var sawChomp = false
        while let c = cur, c == "-" || c == "+" || ("0"..."9").contains(c) {
            if c == "-" || c == "+" {
                if sawChomp { throw fail("a block scalar header can have only one chomping indicator", at: pos) }
                sawChomp = true
                chomping = c == "-" ? .strip : .keep
            } else {
                if explicit != nil { throw fail("a block scalar header can have only one indentation indicator", at: pos) }
                if c == "0" { throw fail("the indentation indicator of a block scalar must be between 1 and 9", at: pos) }
                explicit = Int(c.value - 0x30)
            }
            pos += 1
        }
        let afterHeader = pos
        skipBlanks()
        if cur == "#" {
            if pos == afterHeader { throw fail("a comment must be separated from the block scalar header by a space", at: pos) }
            while !isEOL(pos) { pos += 1 }
        }
        if !isEOL(pos) {
            throw fail("invalid block scalar header; expected '|' or '>' optionally followed by '-', '+' or an indentation digit", at: pos)
        }
        if n < 0 && explicit != nil {
            throw fail("an indentation indicator on a top-level block scalar is not supported", at: start)
        }
        var contentEnd = pos
        guard cur == "\n" else { return node(.string(""), at: start) }
        pos += 1
        let indent = try blockIndent(parentIndent: n, explicit: explicit)
        var out = String.UnicodeScalarView()
        var breaks = scanBlockBreaks(indent)
        var lineBreak = false
        while column(pos) == indent && cur != nil && !(indent == 0 && isDocumentMarker(pos)) {
            out.append(contentsOf: Array(repeating: "\n", count: breaks))
            let leadingNonSpace = !isBlank(pos)
            let lineStart = pos
            while !isEOL(pos) { pos += 1 }
            out.append(contentsOf: chars[lineStart..<pos])
            contentEnd = pos
            lineBreak = cur == "\n"
            if lineBreak { pos += 1 }
            breaks = scanBlockBreaks(indent)
            guard column(pos) == indent && cur != nil && !(indent == 0 && isDocumentMarker(pos)) else { break }
            if folded && lineBreak && leadingNonSpace && !isBlank(pos) {
                if breaks == 0 { out.append(" ") }
            } else if lineBreak {
                out.append("\n")
            }
        }
        if chomping != .strip && lineBreak { out.append("\n") }
        if chomping == .keep { out.append(contentsOf: Array(repeating: "\n", count: breaks)) }
        pos = contentEnd
        return node(.string(String(out)), at: start)
    }

    /// Skips up to `indent` spaces on each line and counts the empty lines.
    private func scanBlockBreaks(_ indent: Int) -> Int {
        var breaks = 0
        while column(pos) < indent && cur == " " { pos += 1 }
        while cur == "\n" {
            breaks += 1
            pos += 1
            if indent == 0 && isDocumentMarker(pos) { break }
            while column(pos) < indent && cur == " " { pos += 1 }
        }
        return breaks
    }

    /// The content indentation: explicit (`n + k`) or detected from the first
    /// non-empty line. Leading empty lines indented more than that line are
    /// an error (YAML 1.2), not a silent change of indentation.
    private func blockIndent(parentIndent n: Int, explicit: Int?) throws -> Int {
        let minIndent = n + 1
        if let k = explicit { return n + k }
        var i = pos
        var maxEmpty = 0
        var maxEmptyLine = i
        while true {
            let lineStart = i
            while ch(i) == " " { i += 1 }
            let spaces = i - lineStart
            if ch(i) == "\n" {
                if spaces > maxEmpty { maxEmptyLine = lineStart }
                maxEmpty = max(maxEmpty, spaces)
                i += 1
                continue
            }
            if ch(i) == nil || (n < 0 && spaces == 0 && isDocumentMarker(i)) {
                return max(minIndent, maxEmpty, spaces)
            }
            if spaces >= minIndent && maxEmpty > spaces {
                throw fail("leading empty lines of a block scalar are indented more than its first line", at: maxEmptyLine + maxEmpty - 1)
            }
            return max(minIndent, maxEmpty, spaces)
        }
    }
}
