import Foundation
import Core
import JobFile
import Run
import Plan
import Service
import Cluster

/// `album run JOBFILE`: runs a job's stages over its photos and records everything in the catalogue.
package struct RunCommand: Command {
    package static let configuration = CommandConfiguration(
        name: "run",
        abstract: "Run a job file's stages over its photos.",
        arguments: "JOBFILE",
        discussion: """
            The first SIGINT or SIGTERM lets the photos in flight finish (for up to 10 s), records them and exits
            130 or 143; a second one stops at once. When the run's output cannot be written (JSON events or
            annotations on stdout, text on stderr: closed, full, or a reader that went away), the run stops the same
            way, is recorded as interrupted and exits 3. Running the job again resumes: finished steps are skipped.
            """,
        options: [SharedOptions.jobCatalogue, workersOption, SharedOptions.force, dryRunOption, SharedOptions.set, logFormat, progress, quiet, failFast,
                  maxFailures, memoryBudget, SharedOptions.allowEmpty, SharedOptions.retryDamaged, SharedOptions.verbose,
                  distributeOption, chunksOption, maxParallelOption, imageOption, applyOption, SharedOptions.wait])

    package static let workersOption = SharedOptions.workers.helped("photos processed at once",
                                                            defaultHelp: "the job's 'workers:', else the number of cores")
    package static let dryRunOption = SharedOptions.dryRun.helped("print what would be done (as 'album plan') and do nothing")
    package static let logFormat: Option<LogFormat?> = .choice("--log-format", LogFormat.self, help: """
        text (default): progress and summary on stderr;
        json: JSON Lines events on stdout (docs/events.md);
        github: GitHub Actions ::error annotations on stdout (paths relative to GITHUB_WORKSPACE),
        summary on stderr and, when GITHUB_STEP_SUMMARY is set, appended to that file as Markdown
        """)
    package static let progress: Option<ProgressForm?> = .optionalChoice("--progress", ProgressForm.self, alone: .live, help: """
        show progress even when stderr is not a terminal (there: plain lines, one every \(Int(ProgressForm.plainSeconds)) s);
        live (default): a line redrawn in place on a terminal (plain lines under TERM=dumb);
        plain: plain lines anywhere
        """)
    package static let quiet: Option<Bool> = .flag("--quiet", aliases: ["-q"], help: "no progress and no summary: only failures, as they happen, on stderr")
    package static let failFast: Option<Bool> = .flag("--fail-fast", help: "start no new photos after the first failure")
    package static let maxFailures: Option<Int?> = .number("--max-failures", in: 1...Int(Int32.max), help: "start no new photos after N failures")
    package static let memoryBudget: Option<Int?> = .number("--memory-budget", "MP", in: 1...100_000,
                                                    help: "the most decoded megapixels in flight at once",
                                                    defaultHelp: "\(RunOptions().pixelBudgetMegapixels); less under ulimit -v")

    package static let distributeOption: Option<DistributedEngine?> = .choice("--distribute", DistributedEngine.self, help: """
        run the job as chunks (docs/distributed.md): local: chunk processes here, then the merge;
        slurm: an sbatch job array and a merge job; k8s: an Indexed Job and a merge Job, written (--apply: applied)
        """)
    package static let chunksOption: Option<Int?> = .number("--chunks", "C", in: 1...1_000_000, help: "with --distribute: how many chunks",
                                                    defaultHelp: "the square root of the photos, at least M; at most 1000 for slurm")
    package static let maxParallelOption: Option<Int?> = .number("--max-parallel", "M", in: 1...100_000, help: "with --distribute: chunks running at once",
                                                         defaultHelp: "local: the cores divided by --workers; slurm, k8s: every chunk (the engine schedules them)")
    package static let imageOption: Option<String?> = .text("--image", "IMAGE", help: "with --distribute k8s: the container image with album (default album:latest)")
    package static let applyOption: Option<Bool> = .flag("--apply", help: "with --distribute k8s: kubectl apply the manifests")

    package static let checksItsOutput = true

    package var given: [String]
    package var jobPath: String { given[0] }
    package var catalogue: String?
    package var options = RunOptions()
    package var variables: [String: String] = [:]
    package var output = RunOutput()
    package var dryRun = false
    package var engine: DistributedEngine?
    package var chunks: Int?
    package var maxParallel: Int?
    package var image: String?
    package var apply = false

    package init(_ arguments: Arguments) throws {
        catalogue = try arguments.value(of: SharedOptions.jobCatalogue)
        options.workers = try arguments.value(of: RunCommand.workersOption)
        options.maxFailures = try arguments.value(of: RunCommand.maxFailures)
        if let budget = try arguments.value(of: RunCommand.memoryBudget) { options.pixelBudgetMegapixels = budget }
        if let format = try arguments.value(of: RunCommand.logFormat) { output.logFormat = format }
        options.force = try arguments.value(of: SharedOptions.force)
        dryRun = try arguments.value(of: RunCommand.dryRunOption)
        options.failFast = try arguments.value(of: RunCommand.failFast)
        options.allowEmpty = try arguments.value(of: SharedOptions.allowEmpty)
        options.retryDamaged = try arguments.value(of: SharedOptions.retryDamaged)
        output.progress = try arguments.value(of: RunCommand.progress)
        output.verbose = try arguments.value(of: SharedOptions.verbose)
        output.quiet = try arguments.value(of: RunCommand.quiet)
        variables = try arguments.value(of: SharedOptions.set)
        engine = try arguments.value(of: RunCommand.distributeOption)
        chunks = try arguments.value(of: RunCommand.chunksOption)
        maxParallel = try arguments.value(of: RunCommand.maxParallelOption)
        image = try arguments.value(of: RunCommand.imageOption)
        apply = try arguments.value(of: RunCommand.applyOption)
        given = arguments.positionals
    }

    package func validate() throws {
        guard given.count == 1 else { throw UsageError(given.isEmpty ? "run needs a job file" : "run takes one job file, got \(given.count)") }
        if output.quiet {
            if output.progress != nil { throw UsageError("-q/--quiet hides the progress that --progress asks for: give one of them") }
            if output.verbose { throw UsageError("-q/--quiet and -v/--verbose ask for opposite things: give one of them") }
        }
        if engine == nil {
            for (option, given) in [("--chunks", chunks != nil), ("--max-parallel", maxParallel != nil), ("--image", image != nil), ("--apply", apply)] where given {
                throw UsageError("\(option) goes with --distribute")
            }
        } else {
            if engine != .k8s, image != nil || apply { throw UsageError("--image and --apply go with --distribute k8s") }
            if dryRun { throw UsageError("--dry-run and --distribute do not go together: `album plan` shows what the run would do") }
            if options.failFast || options.maxFailures != nil { throw UsageError("--fail-fast and --max-failures do not go with --distribute: each chunk records its failures") }
        }
    }

    package func run() throws -> ExitCode {
        var job = try JobLoader.load(path: jobPath, set: variables)
        job.catalogue = try CatalogueLocation.folder(given: catalogue, for: job)
        if dryRun {
            let plan = try Planner(job: job, force: options.force, allowEmpty: options.allowEmpty, retryDamaged: options.retryDamaged).plan()
            for warning in plan.warnings { Console.err(warning) }
            // JSON Lines on stdout: the plan is one line, `album plan --json`'s object (docs/json.md).
            if output.logFormat == .json {
                Console.out(PlanCommand.json(plan, verbose: output.verbose).text)
            } else {
                PlanCommand.print(plan, verbose: output.verbose)
            }
            return Album.checkingOutput(.ok, onlyReads: true)
        }
        if let engine { return try distribute(job, engine: engine) }
        return try JobRun(job: job, options: options, output: output).run()
    }

    /// Plans the run as chunks and hands them to `engine` (docs/distributed.md).
    private func distribute(_ job: Job, engine: DistributedEngine) throws -> ExitCode {
        do {
            var planner = DistributedPlanner(job: job, options: options, engine: engine, chunks: chunks, maxParallel: maxParallel,
                                             variables: variables)
            planner.resumesOpenRun = engine == .local
            var launch = DistributedLaunch(planned: try planner.plan(), workers: options.workers)
            launch.jobName = job.name
            launch.importRoots = job.importStage?.from ?? []
            launch.exportRoots = job.derivedFiles.exportRoots
            if let image { launch.image = image }
            launch.apply = apply
            return Album.checkingOutput(try launch.launch())
        } catch let error as DistributedError {
            Console.error(error.message)
            return error.exitCode == .retry ? .environment : error.exitCode
        }
    }
}
