/// Single- and double-quoted scalars, including all YAML 1.2 escapes and
/// multi-line folding.
extension Parser {
    /// Parses a quoted scalar at `pos` nested in a block of indentation `n`;
    /// continuation lines must be indented more than `n`.
    func parseQuoted(parentIndent n: Int) throws -> Node {
        let open = pos
        let quote = chars[pos]
        let double = quote == "\""
        pos += 1
        var out = String.UnicodeScalarView()
        while true {
            guard let c = cur else {
                throw fail("unterminated \(double ? "double" : "single")-quoted string", at: open)
            }
            if !double && c == "'" {
                if ch(pos + 1) == "'" { out.append("'"); pos += 2; continue }
                pos += 1
                break
            }
            if double && c == "\"" { pos += 1; break }
            if double && c == "\\" {
                if ch(pos + 1) == "\n" {
                    pos += 1
                    let breaks = try skipQuotedBreaks(parentIndent: n, open: open)
                    out.append(contentsOf: Array(repeating: "\n", count: breaks - 1))
                } else {
                    parseEscape(into: &out)
                }
                continue
            }
            if c == " " || c == "\t" {
                var j = pos
                while isBlank(j) { j += 1 }
                if ch(j) != "\n" { out.append(contentsOf: chars[pos..<j]) }
                pos = j
                continue
            }
            if c == "\n" {
                let breaks = try skipQuotedBreaks(parentIndent: n, open: open)
                if breaks == 1 { out.append(" ") } else { out.append(contentsOf: Array(repeating: "\n", count: breaks - 1)) }
                continue
            }
            out.append(c)
            pos += 1
        }
        return node(.string(String(out)), at: open)
    }

    /// At a line break inside a quoted scalar: consumes it, any empty lines
    /// and the next line's leading blanks; returns the number of breaks. An
    /// empty line with a tab in its indentation is reported (YAML 1.2 reads
    /// only spaces there: `a: "x\n\t\n  y"` is an error).
    private func skipQuotedBreaks(parentIndent n: Int, open: Int) throws -> Int {
        var breaks = 0
        while cur == "\n" {
            pos += 1
            breaks += 1
            if isDocumentMarker(pos) {
                throw fail("unterminated \(chars[open] == "\"" ? "double" : "single")-quoted string (a document marker appears before the closing quote)", at: open)
            }
            var spaces = pos
            while ch(spaces) == " " { spaces += 1 }
            let indent = spaces - pos
            let tab = ch(spaces) == "\t" ? spaces : nil
            while isBlank(spaces) { spaces += 1 }
            pos = spaces
            if cur == "\n" || cur == nil {
                if let tab, indent <= n { reportBlankLineTab(at: tab, scalarAt: open) }
                continue
            }
            if indent <= n {
                let kind = chars[open] == "\"" ? "double" : "single"
                throw fail("unterminated \(kind)-quoted string, or its next line is not indented more than the enclosing block", at: open)
            }
        }
        return breaks
    }

    /// Decodes the escape sequence at `pos` (a backslash) into `out`.
    /// Invalid escapes are reported and skipped so later errors are found too.
    private func parseEscape(into out: inout String.UnicodeScalarView) {
        let start = pos
        guard let e = ch(pos + 1), e != "\n" else { pos += 1; return }
        pos += 2
        let simple: [Unicode.Scalar: UInt32] = [
            "0": 0, "a": 7, "b": 8, "t": 9, "\t": 9, "n": 10, "v": 11, "f": 12, "r": 13, "e": 0x1B,
            " ": 0x20, "\"": 0x22, "/": 0x2F, "\\": 0x5C, "N": 0x85, "_": 0xA0, "L": 0x2028, "P": 0x2029,
        ]
        if let v = simple[e] {
            out.append(Unicode.Scalar(v)!)
            return
        }
        let width: Int
        switch e {
        case "x": width = 2
        case "u": width = 4
        case "U": width = 8
        default:
            report("invalid escape sequence '\\\(e)' in a double-quoted string", at: start)
            return
        }
        var value: UInt32 = 0
        for k in 0..<width {
            guard let h = ch(pos + k), let digit = Int(String(h), radix: 16) else {
                report("invalid escape sequence '\\\(e)': expected \(width) hexadecimal digits", at: start)
                return
            }
            value = value &* 16 &+ UInt32(digit)
        }
        pos += width
        guard let scalar = Unicode.Scalar(value) else {
            report("escape '\\\(e)\(String(value, radix: 16, uppercase: true))' is not a valid Unicode scalar value", at: start)
            return
        }
        out.append(scalar)
    }
}
