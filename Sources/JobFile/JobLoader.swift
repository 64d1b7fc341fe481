import Foundation
import System
import Core
import YAML

/// Reads a job file into a `Job`: parse (the YAML subset), expand `${NAME}`, check the schema, fill in defaults.
///
/// Every error is collected and thrown together as a `DiagnosticList`, compiler style (`file:line:col: error: …`).
public enum JobLoader {
    /// The top-level keys of a job file.
    static let topKeys = ["version", "name", "catalogue", "workers", "vars", "presets", "select", "report", "stages"]

    /// Loads the job at `path`.
    /// - Throws: `SourceError` (exit 2) when there is no file at `path` or it cannot be read, a `DiagnosticList`
    ///   for what is wrong inside it.
    /// - Parameters:
    ///   - set: `--set NAME=value` definitions; they override the job's `vars:` and the environment.
    ///   - environment: where `${NAME}` looks after `--set` and `vars:`.
    public static func load(path: String, set: [String: String] = [:],
                            environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Job {
        let absolute = Paths.absolute(path)
        let bytes = try read(path, at: absolute)
        let data = bytes.withBytes { Array($0) }
        let root = try YAMLParser.parse(data, file: path)
        var reader = SchemaReader(file: path, text: String(decoding: data, as: UTF8.self))
        var builder = JobBuilder(reader: reader, folder: (absolute as NSString).deletingLastPathComponent)
        let job = builder.build(root: root, path: absolute, hash: try bytes.sha256(), set: set, environment: environment)
        reader = builder.reader
        guard reader.diagnostics.isEmpty, let job else { throw DiagnosticList(reader.diagnostics) }
        return job
    }

    /// The job file's bytes. A file that is not there, or cannot be read, is said plainly, without a position
    /// in a file that has none: `no such job file: missing.yml`, `cannot read the job file jobs: not a regular file`.
    private static func read(_ path: String, at absolute: String) throws(SourceError) -> FileBytes {
        do {
            return try FileBytes(path: absolute, maxBytes: YAMLParser.maxBytes)
        } catch {
            do throws(SystemError) {
                _ = try FileStatus(absolute, followingLinks: true)
            } catch where error.notFound {
                throw SourceError("no such job file: \(path)", exitCode: .usage)
            } catch {}
            let reason = (error as? FileBytesError)?.reason ?? "\(error)"
            throw SourceError("cannot read the job file \(path): \(reason)", exitCode: .usage)
        }
    }
}
