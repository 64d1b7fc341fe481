/// Block collections: mappings and sequences whose structure is given by
/// indentation.
extension Parser {
    static let badIndentation = "bad indentation; this line does not line up with the entries of any enclosing block"

    /// Parses the node whose content starts at `content` on its own line,
    /// nested in a block with indentation `n` (-1 for the document root).
    func parseBlockNode(at content: Content, parentIndent n: Int, depth: Int) throws -> Node {
        pos = content.index
        if isSequenceEntry(pos) { return try parseBlockSequence(indent: content.indent, depth: depth) }
        if implicitKeyEnd(at: pos) != nil { return try parseBlockMapping(indent: content.indent, depth: depth) }
        return try parseInlineNode(parentIndent: n, depth: depth)
    }

    /// Parses `- item` entries at indentation `c`; `pos` is at the first `-`.
    func parseBlockSequence(indent c: Int, depth: Int) throws -> Node {
        try checkDepth(depth, at: pos)
        let start = pos
        var items: [Node] = []
        while true {
            let dash = pos
            pos += 1
            items.append(try parseSequenceEntry(sequenceIndent: c, dash: dash, depth: depth + 1))
            try expectLineEnd()
            guard let next = nextContent(), !isDocumentMarker(next.index) else { break }
            if next.indent == c && isSequenceEntry(next.index) {
                pos = next.index
                continue
            }
            if next.indent <= c { break }
            throw fail(Parser.badIndentation, at: next.index)
        }
        return node(.sequence(items), at: start)
    }

    /// Parses what follows a `-` (`pos` is just after it).
    private func parseSequenceEntry(sequenceIndent c: Int, dash: Int, depth: Int) throws -> Node {
        let afterDash = pos
        skipBlanks()
        if isEOL(pos) || cur == "#" {
            guard let next = nextContent(), !isDocumentMarker(next.index), next.indent > c else {
                return node(.null, at: dash)
            }
            return try parseBlockNode(at: next, parentIndent: c, depth: depth)
        }
        let compactSequence = isSequenceEntry(pos)
        if compactSequence || implicitKeyEnd(at: pos) != nil {
            if chars[afterDash..<pos].contains("\t") {
                throw fail("tabs are not allowed for indentation; use spaces", at: afterDash)
            }
            let indent = column(pos)
            return compactSequence
                ? try parseBlockSequence(indent: indent, depth: depth)
                : try parseBlockMapping(indent: indent, depth: depth)
        }
        return try parseInlineNode(parentIndent: c, depth: depth)
    }

    /// Parses `key: value` entries at indentation `m`; `pos` is at the first key.
    func parseBlockMapping(indent m: Int, depth: Int) throws -> Node {
        try checkDepth(depth, at: pos)
        let start = pos
        var builder = MappingBuilder()
        while true {
            let keyPos = pos
            let key = try parseImplicitKey()
            let value = try parseMappingValue(mappingIndent: m, depth: depth + 1)
            builder.add(key: key, value: value, keyPos: keyPos, parser: self)
            try expectLineEnd()
            guard let next = nextContent(), !isDocumentMarker(next.index) else { break }
            if next.indent < m { break }
            if next.indent > m { throw fail(Parser.badIndentation, at: next.index) }
            pos = next.index
            if isSequenceEntry(pos) {
                throw fail("expected a mapping key at this indentation, found a sequence entry '- '", at: pos)
            }
            if implicitKeyEnd(at: pos) == nil { throw fail(nonKeyMessage(at: pos), at: pos) }
        }
        return node(.mapping(builder.entries), at: start)
    }

    /// Parses the value after `key:` (`pos` is just after the colon).
    private func parseMappingValue(mappingIndent m: Int, depth: Int) throws -> Node {
        let afterColon = pos
        skipBlanks()
        if isEOL(pos) || cur == "#" {
            guard let next = nextContent(), !isDocumentMarker(next.index) else {
                return node(.null, at: afterColon)
            }
            if next.indent > m { return try parseBlockNode(at: next, parentIndent: m, depth: depth) }
            if next.indent == m && isSequenceEntry(next.index) {
                pos = next.index
                return try parseBlockSequence(indent: m, depth: depth)
            }
            return node(.null, at: afterColon)
        }
        if isSequenceEntry(pos) {
            throw fail("a block sequence cannot start on the same line as its key; put the '- ' entries on the following lines", at: pos)
        }
        if let colon = implicitKeyEnd(at: pos) {
            throw fail("mapping values are not allowed here; a nested mapping must start on its own line", at: colon)
        }
        return try parseInlineNode(parentIndent: m, depth: depth)
    }

    /// Parses a node that starts on the current line in block context:
    /// block scalar, quoted scalar, flow collection or plain scalar.
    func parseInlineNode(parentIndent n: Int, depth: Int) throws -> Node {
        guard let c = cur else { return node(.null, at: pos) }
        switch c {
        case "|", ">":
            return try parseBlockScalar(parentIndent: n)
        case "\"", "'":
            return try parseQuoted(parentIndent: n)
        case "[", "{":
            let start = pos
            let value = try parseFlowCollection(parentIndent: n, depth: depth)
            let save = pos
            skipBlanks()
            if cur == ":" && isWSOrEnd(pos + 1) {
                throw fail("flow collections as mapping keys are not supported", at: start)
            }
            pos = save
            return value
        default:
            if let message = indicatorProblem(at: pos, flow: false) { throw fail(message, at: pos) }
            return try parsePlain(parentIndent: n, flow: false)
        }
    }

    /// Explains why the content at `i` (where a key was expected) is not one.
    private func nonKeyMessage(at i: Int) -> String {
        if let message = indicatorProblem(at: i, flow: false) { return message }
        var j = i
        while !isEOL(j) { j += 1 }
        let line = string(i..<j)
        if ch(i) == "[" || ch(i) == "{" {
            if line.contains(": ") || line.hasSuffix(":") { return "flow collections as mapping keys are not supported" }
        }
        if ch(i) == "\"" || ch(i) == "'" {
            if !line.dropFirst().contains(Character(String(ch(i)!))) { return "multi-line keys are not supported" }
        }
        return "expected a mapping key ('key: value'), found a value without ':'"
    }
}
