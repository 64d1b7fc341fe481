import Foundation
import SQLite
import System
import Vips

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
        return try RunCommand.execute(job, options: options, output: output)
    }

    /// Runs a job through the scheduler and reports it: libvips started, the run recorded in the catalogue from
    /// beginning to end, events to the chosen reporters, the report page when the job asks for one.
    /// `album import` runs its import-only job through here too.
    static func execute(_ job: Job, options: RunOptions, output: RunOutput) throws -> ExitCode {
        var job = job
        let verbose = output.verbose
        Vips.setWarningHandler { message in if verbose { Console.err("album: libvips: \(message)") } }
        var settings = Vips.Settings()
        settings.blockUntrustedLoaders = !(job.importStage?.allowUntrustedLoaders ?? false)
        // Under an address-space limit, one malloc arena: each further arena reserves 64 MB of it.
        if AddressSpace.limit != nil { settings.mallocArenas = 1 }
        try Vips.start(settings)
        let catalogue = try Catalogue(folder: job.catalogue, create: true, writing: true)
        defer { catalogue.close() }
        let options = try affordable(options, job: job, verbose: verbose)
        job = try job.resolvingSelections(in: catalogue)
        let software = Software.current
        let run = try catalogue.beginRun(job: job.name, jobPath: job.path, jobHash: job.hash, started: Timestamp.now(), software: software)
        let scheduler = Scheduler(job: job, options: options, catalogue: catalogue, run: run, software: software,
                                  observer: output.reporters(for: job))
        // A failed write to the run's own output stops it as a first SIGINT would (`StopReason.outputClosed`).
        let mainStreams = output.mainStreams
        Console.onFailure { failure in
            if mainStreams.contains(failure.stream) { scheduler.requestStop(.outputClosed(failure.description), announceLater: true) }
        }
        defer { Console.onFailure(nil) }
        if let failure = RunCommand.outputFailure(mainStreams) { scheduler.requestStop(.outputClosed(failure.description)) }
        let summary: RunSummary
        do {
            summary = try scheduler.runAll(recording: { summary in
                try catalogue.finishRun(run, finished: Timestamp.now(), status: summary.status, counts: summary.countsJSON.text)
            }, onSecondSignal: { SecondSignal.end($0) })
        } catch let error as SQLiteError where error.isCorrupt {
            // SQLITE_CORRUPT or SQLITE_NOTADB met during the run: not even the run row is written any more.
            throw Catalogue.damaged(catalogue.folder + "/" + Catalogue.databaseName, error.message, duringRun: true)
        } catch let error as SQLiteError {
            try? catalogue.finishRun(run, finished: Timestamp.now(), status: "failed", counts: "{}")
            throw CatalogueError("writing to catalogue \(job.catalogue) failed: \(error.message)")
        }
        var status = summary.exitCode
        if let report = job.report {
            do {
                try ReportCommand.writePage(try RunReport.load(from: catalogue, run: run), catalogueFolder: catalogue.folder, to: report)
                if output.logFormat != .json { Console.err("report: \(report)") }
            } catch {
                Console.error("the run finished, but its report could not be written to \(report): \(error)")
                status = summary.exitCode == .ok ? .failures : summary.exitCode
            }
        }
        if let failure = RunCommand.outputFailure(mainStreams) {
            // Said on stderr where stderr still works; the catalogue has the whole truth either way.
            if case .outputClosed? = summary.stop {
                Console.err("album: stopped: \(failure.description); the run is recorded as interrupted. Run the job again to resume.")
            } else {
                // The failed write came after the last photo (the summary), or after another stop.
                Console.err("album: error: output closed: \(failure.description); the run is recorded as \(summary.status).")
            }
            return .environment
        }
        return status
    }

    /// The first failed write to one of `streams`, if any.
    static func outputFailure(_ streams: Set<Console.Stream>) -> Console.Failure? {
        Console.Stream.allCases.lazy.filter(streams.contains).compactMap(Console.failure(of:)).first
    }

    /// `options` with the workers and memory budget that fit under the address-space limit (`MemoryLimit`), and a
    /// note on stderr when they are fewer than asked for. Unchanged when there is no limit.
    /// - Throws: `MemoryLimitError` (exit 3) when not even one worker fits.
    static func affordable(_ options: RunOptions, job: Job, verbose: Bool) throws -> RunOptions {
        guard let limit = AddressSpace.limit, let inUse = AddressSpace.inUse else { return options }
        let memory = MemoryLimit(limit: limit, inUse: inUse, threadStack: AddressSpace.threadStackBytes)
        let workers = max(1, options.workers ?? job.workers ?? ProcessInfo.processInfo.activeProcessorCount)
        let plan = try memory.plan(workers: workers, megapixels: options.pixelBudgetMegapixels)
        if verbose || plan.workers < workers || plan.megapixels < options.pixelBudgetMegapixels {
            Console.err("album: \(AddressSpace.limitDescription ?? ""), \(AddressSpace.megabytes(inUse)) mapped at start: "
                + "running \(plan.workers) worker\(plan.workers == 1 ? "" : "s") (of \(workers)) with a memory budget of "
                + "\(plan.megapixels) MP (of \(options.pixelBudgetMegapixels))")
        }
        var options = options
        options.workers = plan.workers
        options.pixelBudgetMegapixels = plan.megapixels
        return options
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
