import Foundation
import System
import Core
import YAML

/// `album parse FILE`: any document in album's YAML subset as JSON, with no job schema applied.
struct ParseCommand: Command {
    /// Only reads: a reader of its stdout that goes away ends it quietly (`Command.onlyReads`).
    static let onlyReads = true
    static let configuration = CommandConfiguration(
        name: "parse",
        abstract: "Print a YAML-subset document as JSON (a debugging aid).",
        discussion: """
            Prints FILE; with no FILE, or '-', the document on stdin; with --batch each file named on stdin
            (album parse --batch < LIST). Keys become JSON
            strings; .inf and .nan become the strings ".inf", "-.inf" and ".nan". Exit 2 with the error for anything
            outside the subset.
            """)

    @Positionals("[FILE]") var given: [String]
    @Flag("--pretty", help: "indent the JSON") var pretty: Bool
    @Flag("--batch", help: """
        read one path per line from stdin; print one line per path: "OK<tab>JSON" or
        "ERR<tab>line:col: message" (used by tools/yaml/yaml-differential.py)
        """) var batch: Bool

    /// The file to print: nil with `--batch`, "-" for standard input (no FILE, or `-`).
    var path: String? { batch ? nil : given.first ?? "-" }

    func validate() throws {
        if batch {
            guard given.isEmpty else { throw UsageError("parse --batch reads its paths from stdin") }
        } else {
            guard given.count <= 1 else { throw UsageError("parse takes one file (or none, or '-', for standard input), got \(given.count)") }
        }
    }

    func run() throws -> ExitCode {
        guard let path else {
            while let line = readLine() { Console.out(ParseCommand.batchLine(line)) }
            return .ok
        }
        let bytes: [UInt8]
        let name = path == "-" ? "<stdin>" : path
        do {
            bytes = path == "-" ? Array(FileHandle.standardInput.readDataToEndOfFile()) : try FileBytes(path: path, maxBytes: YAMLParser.maxBytes).withBytes { Array($0) }
        } catch let error as FileBytesError {
            throw DiagnosticList([Diagnostic(file: name, location: SourceLocation(line: 1, column: 1), message: error.reason)])
        }
        let node = try YAMLParser.parse(bytes, file: name)
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
