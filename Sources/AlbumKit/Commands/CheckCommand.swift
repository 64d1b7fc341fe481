/// `album check JOB...`: validates job files; silent when they are valid.
struct CheckCommand: Command {
    static let configuration = CommandConfiguration(
        name: "check",
        abstract: "Check job files; print every error, or nothing when they are valid.",
        usage: "album check JOBFILE... [--set NAME=VALUE]...",
        help: "Exit status 0 when every file is valid, 2 when any has an error (each shown as file:line:col).")

    var paths: [String]
    var variables: [String: String] = [:]

    init(arguments: inout Arguments) throws {
        variables = try RunCommand.definitions(&arguments)
        paths = try arguments.positionals()
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
            }
        }
        return failed ? .usage : .ok
    }
}
