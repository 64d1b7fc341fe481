/// The document level: optional `---` start and `...` end markers, and the
/// refusal of directives and multi-document streams.
extension Parser {
    /// Parses the whole input as one document; an empty document is `.null` at 1:1.
    func parseDocument() throws -> Node {
        var next = nextContent()
        if let c = next, chars[c.index] == "%", c.indent == 0 {
            throw fail("directives ('%YAML', '%TAG') are not supported", at: c.index)
        }
        if let c = next, isDocumentMarker(c.index), chars[c.index] == "-" {
            pos = c.index + 3
            skipBlanks()
            if !isEOL(pos) && cur != "#" {
                if isSequenceEntry(pos) || implicitKeyEnd(at: pos) != nil {
                    throw fail("a block collection cannot start on the same line as '---'; start it on the next line", at: pos)
                }
                let root = try parseInlineNode(parentIndent: -1, depth: 0)
                try expectLineEnd()
                return try finishDocument(root, next: nextContent())
            }
            try expectLineEnd()
            next = nextContent()
        }
        var root = Node(value: .null, location: SourceLocation(line: 1, column: 1))
        if let c = next, !isDocumentMarker(c.index) {
            root = try parseBlockNode(at: c, parentIndent: -1, depth: 0)
            try expectLineEnd()
            next = nextContent()
        }
        return try finishDocument(root, next: next)
    }

    /// Checks what follows the root node: nothing, or `...` and comments.
    private func finishDocument(_ root: Node, next: Content?) throws -> Node {
        guard let c = next else { return root }
        if isDocumentMarker(c.index) {
            if chars[c.index] == "-" {
                throw fail("multiple documents in one file are not supported", at: c.index)
            }
            pos = c.index + 3
            try expectLineEnd()
            if let after = nextContent() {
                let message = isDocumentMarker(after.index) || chars[after.index] == "%"
                    ? "multiple documents in one file are not supported"
                    : "content after the document end marker '...' is not supported"
                throw fail(message, at: after.index)
            }
            return root
        }
        if c.indent > 0 { throw fail(Parser.badIndentation, at: c.index) }
        throw fail("unexpected content after the end of the document's top-level node", at: c.index)
    }
}
