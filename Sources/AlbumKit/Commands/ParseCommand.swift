import Vips

/// `album parse FILE`: any document in album's YAML subset as JSON, with no job schema applied.
struct ParseCommand: Command {
    static let configuration = CommandConfiguration(
        name: "parse",
        abstract: "Print a YAML-subset document as JSON (a debugging aid).",
        usage: "album parse FILE [--pretty]",
        help: "Keys become JSON strings; .inf and .nan become the strings \".inf\", \"-.inf\" and \".nan\". Exit 2 with the error for anything outside the subset.")

    var path: String
    var pretty: Bool

    init(arguments: inout Arguments) throws {
        pretty = arguments.flag("--pretty")
        let rest = try arguments.positionals()
        guard rest.count == 1 else { throw UsageError("parse takes one file") }
        path = rest[0]
    }

    func run() throws -> ExitCode {
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
}
