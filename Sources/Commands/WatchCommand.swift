import Core
import Catalogue
import JobFile
import Run
import Service

/// `album watch JOBFILE`: watches a job's import folders and runs the job over new and changed photos as they
/// arrive, until SIGINT or SIGTERM.
struct WatchCommand: Command, WaitsForLock {
    static let configuration = CommandConfiguration(
        name: "watch",
        abstract: "Watch a job's import folders and run its stages on photos as they arrive.",
        discussion: """
            The folders are watched with inotify, new folders under them too. A file is taken once it is complete:
            closed by its writer, renamed into place, or (found in a new folder, or at start) unchanged for the
            settle interval. When no file event has come for that interval, the complete files are one batch, run
            as `album run` runs the job over those files only (the same events and summary, and --log-format
            json). The files already there are the first batch, so nothing put there before the watch is missed.
            The catalogue's lock is held only while a batch runs: `album caption` or another run can go between two
            (with --wait), and a batch due while another album holds the lock waits for it, as long as it takes
            (--wait=SECONDS: at most that long, then exit 3).

            The first SIGINT or SIGTERM stops the watch (a batch in progress stops as `album run` does) and exits
            130 or 143; a second one stops at once. A batch whose output cannot be written stops the watch with 3.
            """)

    static let checksItsOutput = true

    @Positionals("JOBFILE") var given: [String]
    @Option(SharedOptions.jobCatalogue) var catalogue: String?
    @Option(.value("--settle", "SECONDS", help: "how long no file event must come before a batch runs, and how long a found file must stay unchanged",
                   default: 1, defaultHelp: "1", convert: { text in
                       guard let seconds = Double(text), seconds.isFinite, seconds > 0, seconds <= 3600 else {
                           throw UsageError("--settle takes a number of seconds above 0, at most 3600, got '\(text)'")
                       }
                       return seconds
                   }))
    var settle: Double
    @Flag("--once", help: "run one batch, when the files there at start are complete, then exit with its status") var once: Bool
    @Option(SharedOptions.workers.helped("photos processed at once in a batch", defaultHelp: "the job's 'workers:', else the number of cores"))
    var workers: Int?
    @Option(SharedOptions.set) var variables: [String: String]
    @Option(RunCommand.logFormat) var logFormat: LogFormat?
    @Option(RunCommand.progress) var progress: ProgressForm?
    @Option(RunCommand.memoryBudget) var memoryBudget: Int?
    @Option(SharedOptions.allowEmpty) var allowEmpty: Bool
    @Option(SharedOptions.retryDamaged) var retryDamaged: Bool
    @Option(SharedOptions.verbose) var verbose: Bool
    @Option(SharedOptions.wait) var wait: LockWait?

    var jobPath: String { given[0] }

    /// Each batch's run options, from the command line (the job's own come in `JobRun`).
    var options: RunOptions {
        var options = RunOptions()
        options.workers = workers
        if let memoryBudget { options.pixelBudgetMegapixels = memoryBudget }
        options.allowEmpty = allowEmpty
        options.retryDamaged = retryDamaged
        return options
    }

    /// What each batch prints, and where.
    var output: RunOutput {
        var output = RunOutput()
        if let logFormat { output.logFormat = logFormat }
        output.progress = progress
        output.verbose = verbose
        return output
    }

    func validate() throws {
        guard given.count == 1 else { throw UsageError(given.isEmpty ? "watch needs a job file" : "watch takes one job file, got \(given.count)") }
    }

    func run() throws -> ExitCode {
        var job = try JobLoader.load(path: jobPath, set: variables)
        job.catalogue = try CatalogueLocation.folder(given: catalogue, for: job)
        let options = options, output = output
        var watch = JobWatch(job: job) { scan in
            var run = JobRun(job: job, options: options, output: output)
            run.scan = scan
            return run
        }
        watch.settle = settle
        watch.once = once
        return try watch.run()
    }
}
