import Foundation
import System

/// Reads a job file into a `Job`: parse (the YAML subset), expand `${NAME}`, check the schema, fill in defaults.
///
/// Every error is collected and thrown together as a `DiagnosticList`, compiler style (`file:line:col: error: …`).
public enum JobLoader {
    /// The top-level keys of a job file.
    static let topKeys = ["version", "name", "catalogue", "workers", "vars", "presets", "select", "report", "stages"]

    /// Loads the job at `path`.
    /// - Parameters:
    ///   - set: `--set NAME=value` definitions; they override the job's `vars:` and the environment.
    ///   - environment: where `${NAME}` looks after `--set` and `vars:`.
    public static func load(path: String, set: [String: String] = [:],
                            environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Job {
        let absolute = Paths.absolute(path)
        let bytes: FileBytes
        do {
            bytes = try FileBytes(path: absolute, maxBytes: YAMLParser.maxBytes)
        } catch let error as FileBytesError {
            throw DiagnosticList([Diagnostic(file: path, location: SourceLocation(line: 1, column: 1), message: error.reason)])
        }
        let data = bytes.withBytes { Array($0) }
        let root = try YAMLParser.parse(data, file: path)
        var reader = SchemaReader(file: path, text: String(decoding: data, as: UTF8.self))
        var builder = JobBuilder(reader: reader, folder: (absolute as NSString).deletingLastPathComponent)
        let job = builder.build(root: root, path: absolute, hash: bytes.sha256(), set: set, environment: environment)
        reader = builder.reader
        guard reader.diagnostics.isEmpty, let job else { throw DiagnosticList(reader.diagnostics) }
        return job
    }
}
