import Core
import JobFile
import Run
import Service

/// `album watch JOBFILE`: watches a job's import folders and runs the job over new and changed photos as they
/// arrive, until SIGINT or SIGTERM.
package struct WatchCommand: Command {
    package static let configuration = CommandConfiguration(
        name: "watch",
        abstract: "Watch a job's import folders and run its stages on photos as they arrive.",
        arguments: "JOBFILE",
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
            """,
        options: [SharedOptions.jobCatalogue, settleOption, onceOption, workersOption, SharedOptions.set, RunCommand.logFormat, RunCommand.progress,
                  RunCommand.memoryBudget, SharedOptions.allowEmpty, SharedOptions.retryDamaged, SharedOptions.verbose, SharedOptions.wait])

    package static let workersOption = SharedOptions.workers.helped("photos processed at once in a batch",
                                                            defaultHelp: "the job's 'workers:', else the number of cores")
    package static let settleOption: Option<Double> = .value("--settle", "SECONDS", help: "how long no file event must come before a batch runs, and how long a found file must stay unchanged",
                                                     default: 1, defaultHelp: "1") { text in
        guard let seconds = Double(text), seconds.isFinite, seconds > 0, seconds <= 3600 else {
            throw UsageError("--settle takes a number of seconds above 0, at most 3600, got '\(text)'")
        }
        return seconds
    }
    package static let onceOption: Option<Bool> = .flag("--once", help: "run one batch, when the files there at start are complete, then exit with its status")

    package static let checksItsOutput = true

    package var given: [String]
    package var jobPath: String { given[0] }
    package var catalogue: String?
    package var settle: Double
    package var once: Bool
    package var options = RunOptions()
    package var variables: [String: String] = [:]
    package var output = RunOutput()

    package init(_ arguments: Arguments) throws {
        catalogue = try arguments.value(of: SharedOptions.jobCatalogue)
        settle = try arguments.value(of: WatchCommand.settleOption)
        once = try arguments.value(of: WatchCommand.onceOption)
        options.workers = try arguments.value(of: WatchCommand.workersOption)
        if let budget = try arguments.value(of: RunCommand.memoryBudget) { options.pixelBudgetMegapixels = budget }
        if let format = try arguments.value(of: RunCommand.logFormat) { output.logFormat = format }
        output.progress = try arguments.value(of: RunCommand.progress)
        options.allowEmpty = try arguments.value(of: SharedOptions.allowEmpty)
        options.retryDamaged = try arguments.value(of: SharedOptions.retryDamaged)
        output.verbose = try arguments.value(of: SharedOptions.verbose)
        variables = try arguments.value(of: SharedOptions.set)
        given = arguments.positionals
    }

    package func validate() throws {
        guard given.count == 1 else { throw UsageError(given.isEmpty ? "watch needs a job file" : "watch takes one job file, got \(given.count)") }
    }

    package func run() throws -> ExitCode {
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
