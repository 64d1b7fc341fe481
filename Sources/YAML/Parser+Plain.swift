/// Plain (unquoted) scalars, possibly spanning several lines with YAML line
/// folding.
extension Parser {
    /// Parses a plain scalar at `pos` nested in a block of indentation `n`.
    ///
    /// The scalar ends at `: `, at ` #`, at a line that is not indented more
    /// than `n`, at a comment line or a document marker, and in flow context
    /// at `,[]{}`. `pos` is left right after the last character taken.
    func parsePlain(parentIndent n: Int, flow: Bool) throws -> Node {
        let start = pos
        var result = String.UnicodeScalarView()
        var fold: [Unicode.Scalar] = []
        var lastEnd = pos
        while true {
            let chunkStart = pos
            let chunkEnd = try scanPlainChunk(from: pos, flow: flow)
            if chunkEnd == chunkStart { break }
            result.append(contentsOf: fold)
            result.append(contentsOf: chars[chunkStart..<chunkEnd])
            lastEnd = chunkEnd
            guard let next = try plainContinuation(after: chunkEnd, parentIndent: n, flow: flow) else { break }
            fold = next.breaks == 1 ? [" "] : Array(repeating: "\n", count: next.breaks - 1)
            pos = next.index
        }
        pos = lastEnd
        return resolvedPlain(String(result), at: start)
    }

    /// Scans one line's worth of plain text from `i`; returns where it ends
    /// (before trailing blanks, a comment, `: ` or a flow indicator).
    private func scanPlainChunk(from start: Int, flow: Bool) throws -> Int {
        var i = start
        while !isEOL(i) {
            let c = chars[i]
            if c == " " || c == "\t" {
                var j = i
                while isBlank(j) { j += 1 }
                if isEOL(j) || ch(j) == "#" || (flow && isFlowIndicator(j)) { return i }
                if ch(j) == ":" && isWSOrEnd(j + 1) { return i }
                i = j
                continue
            }
            if c == ":" {
                if isWSOrEnd(i + 1) { return i }
                if flow && isFlowIndicator(i + 1) {
                    throw fail("':' directly followed by '\(chars[i + 1])' is read differently by YAML tools; add a space after ':' or quote the value", at: i)
                }
                if flow {
                    throw fail("':' inside a plain scalar in a flow collection is not supported; quote the value", at: i)
                }
            }
            if flow && isFlowIndicator(i) { return i }
            i += 1
        }
        return i
    }

    /// The continuation line of a plain scalar whose text ended at `end`, with
    /// the number of line breaks crossed; `nil` when the scalar ends here.
    /// A blank line crossed must not have a tab in its indentation (YAML 1.2's
    /// `l-empty` in a flow scalar): `a: x\n\t\n  y` is an error, while the
    /// same tab before a less indented line just ends the scalar.
    private func plainContinuation(after end: Int, parentIndent n: Int, flow: Bool) throws -> (index: Int, breaks: Int)? {
        var j = end
        while isBlank(j) { j += 1 }
        guard ch(j) == "\n" else { return nil }
        var breaks = 0
        var blankLineTab: Int?
        while ch(j) == "\n" {
            j += 1
            breaks += 1
            if isDocumentMarker(j) { return nil }
            var spaces = j
            while ch(spaces) == " " { spaces += 1 }
            var t = spaces
            while isBlank(t) { t += 1 }
            if isEOL(t) {
                if t != spaces && spaces - j <= n && blankLineTab == nil { blankLineTab = spaces }
                j = t
                continue
            }
            if ch(t) == "#" { return nil }
            let indent = spaces - j
            if indent <= n {
                if flow {
                    throw fail("bad indentation of a flow collection line; indent it more than the enclosing block", at: t)
                }
                return nil
            }
            if t != spaces { reportTab(at: spaces) }
            if let tab = blankLineTab { reportBlankLineTab(at: tab, scalarAt: end) }
            return (t, breaks)
        }
        return nil
    }

    /// Reports a tab in the indentation of a blank line inside the multi-line
    /// plain or quoted scalar whose text includes position `scalarAt`.
    func reportBlankLineTab(at tab: Int, scalarAt: Int) {
        let line = text.location(of: scalarAt).line
        reportTab(at: tab, detail: "this blank line is inside the multi-line scalar of line \(line), and YAML 1.2 allows no tab in its indentation")
    }
}
