import System

/// `album parse FILE`: any document in album's YAML subset as JSON, with no job schema applied.
struct ParseCommand: Command {
    static let configuration = CommandConfiguration(
        name: "parse",
        abstract: "Print a YAML-subset document as JSON (a debugging aid).",
        usage: "album parse FILE [--pretty] | album parse --batch < LIST",
        help: """
            Keys become JSON strings; .inf and .nan become the strings ".inf", "-.inf" and ".nan". Exit 2 with the
            error for anything outside the subset.

            options:
              --pretty   indent the JSON
              --batch    read one path per line from stdin; print one line per path: "OK<tab>JSON" or
                         "ERR<tab>line:col: message" (used by tools/yaml/yaml-differential.py)
            """)

    var path: String?
    var pretty: Bool
    var batch: Bool

    init(arguments: inout Arguments) throws {
        pretty = arguments.flag("--pretty")
        batch = arguments.flag("--batch")
        let rest = try arguments.positionals()
        if batch {
            guard rest.isEmpty else { throw UsageError("parse --batch reads its paths from stdin") }
        } else {
            guard rest.count == 1 else { throw UsageError("parse takes one file") }
            path = rest[0]
        }
    }

    func run() throws -> ExitCode {
        guard let path else {
            while let line = readLine() { Console.out(ParseCommand.batchLine(line)) }
            return .ok
        }
        let bytes: FileBytes
        do {
            bytes = try FileBytes(path: path, maxBytes: YAMLParser.maxBytes)
        } catch let error as FileBytesError {
            throw DiagnosticList([Diagnostic(file: path, location: SourceLocation(line: 1, column: 1), message: error.reason)])
        }
        let node = try YAMLParser.parse(bytes.withBytes { Array($0) }, file: path)
        Console.out(node.jsonText(pretty: pretty))
        return .ok
    }

    /// One `--batch` answer.
    static func batchLine(_ path: String) -> String {
        do {
            let bytes = try FileBytes(path: path, maxBytes: YAMLParser.maxBytes)
            return "OK\t" + (try YAMLParser.parse(bytes.withBytes { Array($0) }, file: path)).jsonText(pretty: false)
        } catch let list as DiagnosticList {
            let first = list.diagnostics.first.map { "\($0.location): \($0.message)" } ?? "(no diagnostic)"
            return "ERR\t" + first.replacingOccurrences(of: "\n", with: " ")
        } catch {
            return "ERR\t\(error)"
        }
    }
}
