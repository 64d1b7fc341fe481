import Foundation
import SQLite
import Vips

/// `album run JOBFILE`: runs a job's stages over its photos and records everything in the catalogue.
struct RunCommand: Command {
    static let configuration = CommandConfiguration(
        name: "run",
        abstract: "Run a job file's stages over its photos.",
        arguments: "JOBFILE",
        discussion: """
            The first SIGINT or SIGTERM lets the photos in flight finish (for up to 10 s), records them and exits
            130 or 143; a second one stops at once. When the run's output cannot be written (JSON events or
            annotations on stdout, text on stderr: closed, full, or a reader that went away), the run stops the same
            way, is recorded as interrupted and exits 3. Running the job again resumes: finished steps are skipped.
            """,
        options: [SharedOptions.jobCatalogue, workersOption, SharedOptions.force, dryRunOption, SharedOptions.set, logFormat, progress, failFast,
                  maxFailures, memoryBudget, SharedOptions.verbose])

    static let workersOption = SharedOptions.workers.helped("photos processed at once",
                                                            defaultHelp: "the job's 'workers:', else the number of cores")
    static let dryRunOption = SharedOptions.dryRun.helped("print what would be done (as 'album plan') and do nothing")
    static let logFormat: Option<LogFormat?> = .choice("--log-format", LogFormat.self, help: """
        text (default): progress and summary on stderr;
        json: JSON Lines events on stdout (docs/events.md);
        github: GitHub Actions ::error annotations on stdout, summary on stderr
        """)
    static let progress: Option<Bool> = .flag("--progress", help: "show the live progress line even when stderr is not a terminal")
    static let failFast: Option<Bool> = .flag("--fail-fast", help: "start no new photos after the first failure")
    static let maxFailures: Option<Int?> = .number("--max-failures", in: 1...Int(Int32.max), help: "start no new photos after N failures")
    static let memoryBudget: Option<Int?> = .number("--memory-budget", "MP", in: 1...100_000,
                                                    help: "the most decoded megapixels in flight at once",
                                                    defaultHelp: "\(RunOptions().pixelBudgetMegapixels); less under ulimit -v")

    static let checksItsOutput = true

    var given: [String]
    var jobPath: String { given[0] }
    var catalogue: String?
    var options = RunOptions()
    var variables: [String: String] = [:]
    var output = RunOutput()
    var dryRun = false

    init(_ arguments: Arguments) throws {
        catalogue = try arguments.value(of: SharedOptions.jobCatalogue)
        options.workers = try arguments.value(of: RunCommand.workersOption)
        options.maxFailures = try arguments.value(of: RunCommand.maxFailures)
        if let budget = try arguments.value(of: RunCommand.memoryBudget) { options.pixelBudgetMegapixels = budget }
        if let format = try arguments.value(of: RunCommand.logFormat) { output.logFormat = format }
        options.force = try arguments.value(of: SharedOptions.force)
        dryRun = try arguments.value(of: RunCommand.dryRunOption)
        options.failFast = try arguments.value(of: RunCommand.failFast)
        output.forceProgress = try arguments.value(of: RunCommand.progress)
        output.verbose = try arguments.value(of: SharedOptions.verbose)
        variables = try arguments.value(of: SharedOptions.set)
        given = arguments.positionals
    }

    func validate() throws {
        guard given.count == 1 else { throw UsageError(given.isEmpty ? "run needs a job file" : "run takes one job file, got \(given.count)") }
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
            summary = try scheduler.runAll { summary in
                try catalogue.finishRun(run, finished: Timestamp.now(), status: summary.status, counts: summary.countsJSON.text)
            }
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
}
