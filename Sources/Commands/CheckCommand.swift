import Core
import YAML
import JobFile

/// `album check JOB...`: validates job files; silent when they are valid.
struct CheckCommand: Command {
    /// Only reads: a reader of its stdout that goes away ends it quietly (`Command.onlyReads`).
    static let onlyReads = true
    static let configuration = CommandConfiguration(
        name: "check",
        abstract: "Check job files; print every error, or nothing when they are valid.",
        discussion: "Exit status 0 when every file is valid, 2 when any has an error (each shown as file:line:col).")

    @Positionals("JOBFILE...") var paths: [String]
    @Option(SharedOptions.set) var variables: [String: String]

    func validate() throws {
        guard !paths.isEmpty else { throw UsageError("check needs at least one job file") }
    }

    func run() throws -> ExitCode {
        var failed = false
        for path in paths {
            do {
                _ = try JobLoader.load(path: path, set: variables)
            } catch let error as DiagnosticList {
                Console.err(error.rendered())
                failed = true
            } catch let error as SourceError {
                Console.error(error.message)
                failed = true
            }
        }
        return failed ? .usage : .ok
    }
}
