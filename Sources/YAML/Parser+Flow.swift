/// Flow collections: `[a, b]` and `{a: 1}`, nested, possibly spanning lines.
extension Parser {
    /// Parses a flow collection at `pos` (`[` or `{`) nested in a block of
    /// indentation `n`; every line inside must be indented more than `n`.
    func parseFlowCollection(parentIndent n: Int, depth: Int) throws -> Node {
        try checkDepth(depth, at: pos)
        let open = pos
        let isSequence = chars[pos] == "["
        let close: Unicode.Scalar = isSequence ? "]" : "}"
        pos += 1
        var items: [Node] = []
        var builder = MappingBuilder()
        while true {
            try skipFlowSpace(parentIndent: n, open: open)
            if cur == close { pos += 1; break }
            if cur == "," {
                throw fail("unexpected ',' in a flow collection; empty entries are not allowed", at: pos)
            }
            if isSequence {
                let item = try parseFlowNode(parentIndent: n, depth: depth + 1)
                try skipFlowSpace(parentIndent: n, open: open)
                if cur == ":" {
                    throw fail("single-pair mappings inside flow sequences ('[a: b]') are not supported; write '[{a: b}]'", at: pos)
                }
                items.append(item)
            } else {
                let keyPos = pos
                let (key, value) = try parseFlowMappingEntry(parentIndent: n, depth: depth, open: open)
                builder.add(key: key, value: value, keyPos: keyPos, parser: self)
            }
            try skipFlowSpace(parentIndent: n, open: open)
            if cur == "," { pos += 1; continue }
            if cur == close { pos += 1; break }
            throw fail("expected ',' or '\(close)' in the flow \(isSequence ? "sequence" : "mapping")", at: pos)
        }
        return node(isSequence ? .sequence(items) : .mapping(builder.entries), at: open)
    }

    /// Parses `key`, `key: value` or `"key":value` inside `{...}`.
    private func parseFlowMappingEntry(parentIndent n: Int, depth: Int, open: Int) throws -> (Node, Node) {
        let keyPos = pos
        if cur == "[" || cur == "{" {
            throw fail("flow collections as mapping keys are not supported", at: pos)
        }
        let quoted = cur == "\"" || cur == "'"
        let key = try parseFlowNode(parentIndent: n, depth: depth + 1)
        if text.lineIndex(of: keyPos) != text.lineIndex(of: pos) {
            throw fail("multi-line keys are not supported", at: keyPos)
        }
        if case .string("<<") = key.value, !quoted {
            report("merge keys ('<<') are not supported", at: keyPos)
        }
        skipBlanks()
        if cur == ":" {
            guard quoted || isWSOrEnd(pos + 1) || ch(pos + 1) == "," || ch(pos + 1) == "}" else {
                throw fail("expected a space after ':'", at: pos)
            }
            let colon = pos
            pos += 1
            try skipFlowSpace(parentIndent: n, open: open)
            if cur == "," || cur == "}" { return (key, node(.null, at: colon + 1)) }
            return (key, try parseFlowNode(parentIndent: n, depth: depth + 1))
        }
        let save = pos
        try skipFlowSpace(parentIndent: n, open: open)
        if cur == ":" { throw fail("the ':' must be on the same line as its key", at: pos) }
        pos = save
        return (key, node(.null, at: pos))
    }

    /// Parses one node inside a flow collection.
    private func parseFlowNode(parentIndent n: Int, depth: Int) throws -> Node {
        switch cur {
        case "[", "{":
            return try parseFlowCollection(parentIndent: n, depth: depth)
        case "\"", "'":
            return try parseQuoted(parentIndent: n)
        default:
            if let message = indicatorProblem(at: pos, flow: true) { throw fail(message, at: pos) }
            return try parsePlain(parentIndent: n, flow: true)
        }
    }

    /// Skips blanks, comments and line breaks inside a flow collection,
    /// checking each new line's indentation and refusing document markers.
    func skipFlowSpace(parentIndent n: Int, open: Int) throws {
        while true {
            guard let c = cur else {
                throw fail("unclosed '\(chars[open])'; expected '\(chars[open] == "[" ? "]" : "}")' before the end of the file", at: open)
            }
            if c == " " || c == "\t" { pos += 1; continue }
            if c == "#" {
                if pos > 0, !isWSOrEnd(pos - 1) {
                    throw fail("a comment must be separated from the value by a space", at: pos)
                }
                while !isEOL(pos) { pos += 1 }
                continue
            }
            if c == "\n" {
                pos += 1
                if isDocumentMarker(pos) {
                    throw fail("unclosed '\(chars[open])'; a document marker appears before the closing bracket", at: open)
                }
                var spaces = pos
                while ch(spaces) == " " { spaces += 1 }
                var t = spaces
                while isBlank(t) { t += 1 }
                if !isEOL(t) && ch(t) != "#" && spaces - pos <= n {
                    throw fail("bad indentation of a flow collection line; indent it more than the enclosing block", at: t)
                }
                continue
            }
            return
        }
    }
}
