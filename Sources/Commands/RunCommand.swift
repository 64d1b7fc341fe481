import Foundation
import Core
import Catalogue
import JobFile
import Run
import Plan
import Service
import Cluster

/// `album run JOBFILE`: runs a job's stages over its photos and records everything in the catalogue.
struct RunCommand: Command, WaitsForLock {
    static let configuration = CommandConfiguration(
        name: "run",
        abstract: "Run a job file's stages over its photos.",
        discussion: """
            The first SIGINT or SIGTERM lets the photos in flight finish (for up to 10 s), records them and exits
            130 or 143; a second one stops at once. When the run's output cannot be written (JSON events or
            annotations on stdout, text on stderr: closed, full, or a reader that went away), the run stops the same
            way, is recorded as interrupted and exits 3. Running the job again resumes: finished steps are skipped.
            """)

    /// `--log-format`, `--progress` and `--memory-budget`, which `watch` and `chunk` take too.
    static let logFormat: Option<LogFormat?> = .choice("--log-format", LogFormat.self, help: """
        text (default): progress and summary on stderr;
        json: JSON Lines events on stdout (docs/events.md);
        github: GitHub Actions ::error annotations on stdout (paths relative to GITHUB_WORKSPACE),
        summary on stderr and, when GITHUB_STEP_SUMMARY is set, appended to that file as Markdown
        """)
    static let progress: Option<ProgressForm?> = .optionalChoice("--progress", ProgressForm.self, alone: .live, help: """
        show progress even when stderr is not a terminal (there: plain lines, one every \(Int(ProgressForm.plainSeconds)) s);
        live (default): a line redrawn in place on a terminal (plain lines under TERM=dumb);
        plain: plain lines anywhere
        """)
    static let memoryBudget: Option<Int?> = .number("--memory-budget", "MP", in: 1...100_000,
                                                    help: "the most decoded megapixels in flight at once",
                                                    defaultHelp: "\(RunOptions().pixelBudgetMegapixels); less under ulimit -v")

    static let checksItsOutput = true

    @Positionals("JOBFILE") var given: [String]
    @Option(SharedOptions.jobCatalogue) var catalogue: String?
    @Option(SharedOptions.workers.helped("photos processed at once", defaultHelp: "the job's 'workers:', else the number of cores"))
    var workers: Int?
    @Option(SharedOptions.force) var force: Bool
    @Option(SharedOptions.dryRun.helped("print what would be done (as 'album plan') and do nothing")) var dryRun: Bool
    @Option(SharedOptions.set) var variables: [String: String]
    @Option(RunCommand.logFormat) var logFormat: LogFormat?
    @Option(RunCommand.progress) var progress: ProgressForm?
    @Flag("--quiet", aliases: ["-q"], help: "no progress and no summary: only failures, as they happen, on stderr") var quiet: Bool
    @Flag("--fail-fast", help: "start no new photos after the first failure") var failFast: Bool
    @Option(.number("--max-failures", in: 1...Int(Int32.max), help: "start no new photos after N failures")) var maxFailures: Int?
    @Option(RunCommand.memoryBudget) var memoryBudget: Int?
    @Option(SharedOptions.allowEmpty) var allowEmpty: Bool
    @Option(SharedOptions.retryDamaged) var retryDamaged: Bool
    @Option(SharedOptions.verbose) var verbose: Bool
    @Option(.choice("--distribute", DistributedEngine.self, help: """
        run the job as chunks (docs/distributed.md): local: chunk processes here, then the merge;
        slurm: an sbatch job array and a merge job; k8s: an Indexed Job and a merge Job, written (--apply: applied)
        """))
    var engine: DistributedEngine?
    @Option(.number("--chunks", "C", in: 1...1_000_000, help: "with --distribute: how many chunks",
                    defaultHelp: "one per 5000 photos, at least M; at most 100000 for k8s"))
    var chunks: Int?
    @Option(.number("--max-parallel", "M", in: 1...100_000, help: "with --distribute: chunks running at once",
                    defaultHelp: "local: the cores divided by --workers; slurm, k8s: every chunk (the engine schedules them)"))
    var maxParallel: Int?
    @Option(.text("--image", "IMAGE", help: "with --distribute k8s: the container image with album (default album:latest)")) var image: String?
    @Flag("--apply", help: "with --distribute k8s: kubectl apply the manifests") var apply: Bool
    @Option(SharedOptions.wait) var wait: LockWait?

    var jobPath: String { given[0] }

    /// The run's options, from the command line (the job's own come in `JobRun`).
    var options: RunOptions {
        var options = RunOptions()
        options.workers = workers
        options.maxFailures = maxFailures
        if let memoryBudget { options.pixelBudgetMegapixels = memoryBudget }
        options.force = force
        options.failFast = failFast
        options.allowEmpty = allowEmpty
        options.retryDamaged = retryDamaged
        return options
    }

    /// What the run prints, and where.
    var output: RunOutput {
        var output = RunOutput()
        if let logFormat { output.logFormat = logFormat }
        output.progress = progress
        output.verbose = verbose
        output.quiet = quiet
        return output
    }

    func validate() throws {
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

    func run() throws -> ExitCode {
        var job = try JobLoader.load(path: jobPath, set: variables)
        job.catalogue = try CatalogueLocation.folder(given: catalogue, for: job)
        if dryRun {
            var planner = Planner(job: job, force: options.force, allowEmpty: options.allowEmpty, retryDamaged: options.retryDamaged)
            planner.keepsEntries = output.verbose
            let plan = try planner.plan()
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
