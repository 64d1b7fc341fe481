/// Implicit (single-line) keys and the indicator rules for the first
/// character of a scalar.
extension Parser {
    /// The longest key accepted, in characters (as in YAML's implicit keys).
    static let maxKeyLength = 1024

    /// If an implicit key starts at `p` on this line, the index of its `:`.
    func implicitKeyEnd(at p: Int) -> Int? {
        guard let c = ch(p) else { return nil }
        var i = p
        if c == "\"" || c == "'" {
            i += 1
            while true {
                guard let d = ch(i), d != "\n" else { return nil }
                if c == "'" && d == "'" {
                    if ch(i + 1) == "'" { i += 2; continue }
                    i += 1; break
                }
                if c == "\"" && d == "\\" {
                    if isEOL(i + 1) { return nil }
                    i += 2; continue
                }
                if c == "\"" && d == "\"" { i += 1; break }
                i += 1
            }
            while isBlank(i) { i += 1 }
            return ch(i) == ":" && isWSOrEnd(i + 1) ? i : nil
        }
        guard isPlainStart(p, flow: false) else { return nil }
        i = p + 1
        while !isEOL(i) {
            let d = chars[i]
            if d == ":" && isWSOrEnd(i + 1) { return i }
            if d == "#" && isBlank(i - 1) { return nil }
            i += 1
        }
        return nil
    }

    /// Parses an implicit key at `pos` and consumes its `:`.
    func parseImplicitKey() throws -> Node {
        guard let colon = implicitKeyEnd(at: pos) else {
            throw fail("expected a mapping key ('key: value')", at: pos)
        }
        let start = pos
        if colon - start > Parser.maxKeyLength {
            throw fail("keys longer than \(Parser.maxKeyLength) characters are not supported", at: start)
        }
        let key: Node
        if cur == "\"" || cur == "'" {
            key = try parseQuoted(parentIndent: -1)
        } else {
            var end = colon
            while end > start && isBlank(end - 1) { end -= 1 }
            let text = string(start..<end)
            if text == "<<" { report("merge keys ('<<') are not supported", at: start) }
            key = resolvedPlain(text, at: start)
        }
        pos = colon + 1
        return key
    }

    /// True for `,[]{}`.
    func isFlowIndicator(_ i: Int) -> Bool {
        guard let c = ch(i) else { return false }
        return c == "," || c == "[" || c == "]" || c == "{" || c == "}"
    }

    /// True if a plain scalar may start at `p` (YAML's ns-plain-first).
    func isPlainStart(_ p: Int, flow: Bool) -> Bool {
        guard let c = ch(p), !isWSOrEnd(p) else { return false }
        if c == "-" || c == "?" || c == ":" {
            return !isWSOrEnd(p + 1) && !(flow && isFlowIndicator(p + 1))
        }
        return !"-?:,[]{}#&*!|>'\"%@`".unicodeScalars.contains(c)
    }

    /// An error message when the character at `p` cannot start a scalar here
    /// (unsupported or reserved indicators), else `nil`.
    func indicatorProblem(at p: Int, flow: Bool) -> String? {
        guard let c = ch(p) else { return nil }
        switch c {
        case "&": return "anchors ('&name') are not supported"
        case "*": return "aliases ('*name') are not supported"
        case "!": return "tags ('!tag') are not supported"
        case "%": return "'%' cannot start a plain scalar (directives are not supported); quote the value"
        case "@", "`": return "'\(c)' is a reserved indicator and cannot start a plain scalar; quote the value"
        case "|", ">":
            return flow ? "block scalars ('\(c)') are not allowed inside flow collections" : nil
        case "#": return "unexpected comment; a value was expected"
        case "?" where flow:
            return "'?' at the start of a value in a flow collection is not supported (complex keys); quote the value"
        case ",", "]", "}":
            return "unexpected '\(c)'; quote the value if it is meant as text"
        default: break
        }
        if isPlainStart(p, flow: flow) || c == "\"" || c == "'" || c == "[" || c == "{" { return nil }
        switch c {
        case "?": return "complex mapping keys ('? ') are not supported"
        case ":": return "empty mapping keys are not supported; a key is missing before ':'"
        case "-":
            return flow ? "block sequence entries ('- ') are not allowed inside flow collections"
                : "a block sequence entry ('- ') is not allowed here"
        default: return "unexpected '\(c)'"
        }
    }

    /// A plain scalar node resolved with the core schema; resolution errors
    /// are reported and the text kept as a string.
    func resolvedPlain(_ text: String, at i: Int) -> Node {
        switch ScalarResolver.resolve(text) {
        case .value(let v): return node(v, at: i)
        case .error(let message):
            report(message, at: i)
            return node(.string(text), at: i)
        }
    }
}
