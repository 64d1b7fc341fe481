/// Literal (`|`) and folded (`>`) block scalars with chomping (`-`, `+`)
/// and indentation (`1`-`9`) indicators.
///
/// The content algorithm mirrors PyYAML/ruamel's `scan_block_scalar`, with
/// two YAML 1.2 rules that those readers miss:
/// - The end of the input ends the last line as a line break would, as in
///   the YAML 1.2 reference parser (it appends the missing break) and the
///   yaml-test-suite (`foo: |\n  x\n   ` without a final break is
///   `"x\n \n"`, L24T; `- |+\n   ` is `["\n"]`, JEF9). So `a: |\n  x` at
///   the end of a file is `"x\n"`, as clip chomping promises.
/// - A tab in the indentation of a line ends the scalar (productions
///   `s-indent` and `l-empty` admit spaces only), and nothing but comments
///   may follow it: see `checkTabEndingBlockScalar`.
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
        var sawLine = false
        while isBlockScalarLine(indent) {
            out.append(contentsOf: repeatElement("\n", count: breaks))
            let leadingNonSpace = !isBlank(pos)
            let lineStart = pos
            while !isEOL(pos) { pos += 1 }
            out.append(contentsOf: chars[lineStart..<pos])
            contentEnd = pos
            sawLine = true
            if cur == "\n" { pos += 1 }
            breaks = scanBlockBreaks(indent)
            guard isBlockScalarLine(indent) else { break }
            if folded && leadingNonSpace && !isBlank(pos) {
                if breaks == 0 { out.append(" ") }
            } else {
                out.append("\n")
            }
        }
        // Every line read ended with a break, or with the input, which counts as one.
        if chomping != .strip && sawLine { out.append("\n") }
        if chomping == .keep { out.append(contentsOf: repeatElement("\n", count: breaks)) }
        checkTabEndingBlockScalar(startedAt: start)
        pos = contentEnd
        return node(.string(String(out)), at: start)
    }

    /// True if `pos` starts a content line of a block scalar indented by `indent`.
    private func isBlockScalarLine(_ indent: Int) -> Bool {
        column(pos) == indent && cur != nil && !(indent == 0 && isDocumentMarker(pos))
    }

    /// Skips up to `indent` spaces on each line and counts the empty lines.
    /// A last line of spaces without a line break counts too: the end of the
    /// input ends it (`a: |+\n  x\n  ` is `"x\n\n"`, as with the break).
    private func scanBlockBreaks(_ indent: Int) -> Int {
        var breaks = 0
        var lineStart = pos
        while column(pos) < indent && cur == " " { pos += 1 }
        while cur == "\n" {
            breaks += 1
            pos += 1
            lineStart = pos
            if indent == 0 && isDocumentMarker(pos) { break }
            while column(pos) < indent && cur == " " { pos += 1 }
        }
        if cur == nil && pos > lineStart { breaks += 1 }
        return breaks
    }

    /// Reports a tab in the indentation of the line that ended a block
    /// scalar, when that line is blank or a comment (a line with content is
    /// reported by the enclosing block). YAML 1.2 ends the scalar at such a
    /// line and then admits only comments, so `a: |\n  x\n\t\nb: 1` is an
    /// error while the same lines at the end of the document are not.
    private func checkTabEndingBlockScalar(startedAt start: Int) {
        guard cur == "\t" else { return }
        let tab = pos
        var i = pos
        while isBlank(i) { i += 1 }
        guard isEOL(i) || ch(i) == "#" else { return }
        while !isEOL(i) { i += 1 }
        while i < chars.count {
            i += 1
            if isDocumentMarker(i) { return }
            while isBlank(i) { i += 1 }
            if ch(i) == "#" || isEOL(i) {
                while !isEOL(i) { i += 1 }
                continue
            }
            let line = text.location(of: start).line
            reportTab(at: tab, detail: "this tab ends the block scalar of line \(line), and YAML 1.2 allows only comments after it")
            return
        }
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
