/// Entry point of the job-file reader: a parser for a strict subset of
/// YAML 1.2 (block and flow collections, all scalar styles, comments).
///
/// Anything outside the subset (anchors, aliases, tags, directives, several
/// documents, complex keys, tab indentation, merge keys, ...) is rejected with
/// a diagnostic naming the construct, so an accepted file always means what
/// a conforming YAML 1.2 reader would make of it.
public struct YAMLParser {
    /// Largest accepted file, in bytes (1 MiB).
    public static let maxBytes: Int = 1 << 20
    /// Deepest accepted nesting of collections.
    public static let maxDepth: Int = 64

    /// Parses UTF-8 `bytes` (a leading BOM is skipped) into the root node of
    /// the single document they hold.
    ///
    /// - Parameter file: the path as given, used only in diagnostics.
    /// - Throws: `DiagnosticList` with every independent error found, sorted
    ///   by location. After a structural error parsing stops.
    public static func parse(_ bytes: [UInt8], file: String) throws -> Node {
        if bytes.count > maxBytes {
            throw DiagnosticList([Diagnostic(
                file: file, location: SourceLocation(line: 1, column: 1),
                message: "file is too large (\(bytes.count) bytes; the limit is \(maxBytes) bytes)")])
        }
        let decoded = UTF8Decoding.decode(bytes)
        let text = SourceText(chars: decoded.chars)
        if !decoded.problems.isEmpty {
            throw DiagnosticList(decoded.problems.map { location, message in
                Diagnostic(file: file, location: location, message: message, sourceLine: text.lineText(location.line))
            })
        }
        let parser = Parser(text: text, file: file)
        var root: Node?
        do {
            root = try parser.parseDocument()
        } catch is ParseAbort {
            root = nil
        }
        if !parser.diagnostics.isEmpty || root == nil {
            throw DiagnosticList(parser.diagnostics)
        }
        return root!
    }

    /// Parses a string (convenience for tests and tools).
    public static func parse(string: String, file: String) throws -> Node {
        try parse(Array(string.utf8), file: file)
    }
}
