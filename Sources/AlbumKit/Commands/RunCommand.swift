import Foundation

/// `album run JOBFILE`: runs a job's stages over its photos and records everything in the catalogue.
struct RunCommand: Command {
    static let configuration = CommandConfiguration(
        name: "run",
        abstract: "Run a job file's stages over its photos.",
        usage: "album run JOBFILE [--catalogue DIR] [--workers N] [--force] [--dry-run] [--set NAME=VALUE]... [--log-format text|json|github] [--progress] [--fail-fast] [--max-failures N] [--memory-budget MP] [--verbose]",
        help: """
            options:
              --catalogue DIR       use this catalogue folder instead of the job's 'catalogue:'
              --workers N           photos processed at once (default: the job's 'workers:', else the number of cores)
              --force               redo every selected step, even those already up to date
              --dry-run             print what would be done (as 'album plan') and do nothing
              --set NAME=VALUE      define or override a job variable, used as ${NAME}
              --log-format FORMAT   text (default): progress and summary on stderr;
                                    json: JSON Lines events on stdout (docs/events.md);
                                    github: GitHub Actions ::error annotations on stdout, summary on stderr
              --progress            show the live progress line even when stderr is not a terminal
              --fail-fast           start no new photos after the first failure
              --max-failures N      start no new photos after N failures
              --memory-budget MP    the most decoded megapixels in flight at once (default 100; less under ulimit -v)
              --verbose             print every step, and libvips' warnings

            The first SIGINT or SIGTERM lets the photos in flight finish (for up to 10 s), records them and exits
            130 or 143; a second one stops at once. When the run's output cannot be written (JSON events or
            annotations on stdout, text on stderr: closed, full, or a reader that went away), the run stops the same
            way, is recorded as interrupted and exits 3. Running the job again resumes: finished steps are skipped.
            """)

    static let checksItsOutput = true

    var jobPath: String
    var catalogue: String?
    var options = RunOptions()
    var variables: [String: String] = [:]
    var output = RunOutput()
    var dryRun = false

    init(arguments: inout Arguments) throws {
        catalogue = try arguments.option("--catalogue")
        if let workers = try arguments.option("--workers") {
            options.workers = try RunCommand.number(workers, flag: "--workers", in: 1...256)
        }
        if let limit = try arguments.option("--max-failures") {
            options.maxFailures = try RunCommand.number(limit, flag: "--max-failures", in: 1...Int(Int32.max))
        }
        if let budget = try arguments.option("--memory-budget") {
            options.pixelBudgetMegapixels = try RunCommand.number(budget, flag: "--memory-budget", in: 1...100_000)
        }
        if let format = try arguments.option("--log-format") {
            guard let value = LogFormat(rawValue: format) else {
                throw UsageError("--log-format takes text, json or github, got '\(format)'")
            }
            output.logFormat = value
        }
        options.force = arguments.flag("--force")
        dryRun = arguments.flag("--dry-run", "-n")
        options.failFast = arguments.flag("--fail-fast")
        output.forceProgress = arguments.flag("--progress")
        output.verbose = arguments.flag("--verbose", "-v")
        variables = try RunCommand.definitions(&arguments)
        let rest = try arguments.positionals()
        guard rest.count == 1 else { throw UsageError(rest.isEmpty ? "run needs a job file" : "run takes one job file, got \(rest.count)") }
        jobPath = rest[0]
    }

    func run() throws -> ExitCode {
        var job = try JobLoader.load(path: jobPath, set: variables)
        if let catalogue { job.catalogue = Paths.absolute(catalogue) }
        if dryRun {
            PlanCommand.print(try Planner(job: job, force: options.force).plan(), verbose: output.verbose)
            return Album.checkingOutput(.ok)
        }
        return try JobRun(job: job, options: options, output: output).run()
    }

    static func number(_ text: String, flag: String, in range: ClosedRange<Int>) throws -> Int {
        guard let n = Int(text), range.contains(n) else {
            throw UsageError("\(flag) takes a number from \(range.lowerBound) to \(range.upperBound), got '\(text)'")
        }
        return n
    }

    /// Every `--set NAME=VALUE`.
    static func definitions(_ arguments: inout Arguments) throws -> [String: String] {
        var variables: [String: String] = [:]
        for definition in try arguments.options("--set") {
            guard let equals = definition.firstIndex(of: "="), equals != definition.startIndex else {
                throw UsageError("--set takes NAME=VALUE, got '\(definition)'")
            }
            variables[String(definition[..<equals])] = String(definition[definition.index(after: equals)...])
        }
        return variables
    }
}
