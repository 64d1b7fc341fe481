import Foundation
import SQLite
import Vips

/// `album run JOBFILE`: runs a job's stages over its photos and records everything in the catalogue.
struct RunCommand: Command {
    static let configuration = CommandConfiguration(
        name: "run",
        abstract: "Run a job file's stages over its photos.",
        usage: "album run JOBFILE [--catalogue DIR] [--workers N] [--force] [--set NAME=VALUE]... [--verbose]",
        help: """
            options:
              --catalogue DIR   use this catalogue folder instead of the job's 'catalogue:'
              --workers N       photos processed at once (default: the job's 'workers:', else the number of cores)
              --force           redo every selected step, even those already up to date
              --set NAME=VALUE  define or override a job variable, used as ${NAME}
              --verbose         print every step, and libvips' warnings
            """)

    var jobPath: String
    var catalogue: String?
    var options = RunOptions()
    var variables: [String: String] = [:]
    var verbose = false

    init(arguments: inout Arguments) throws {
        catalogue = try arguments.option("--catalogue")
        if let workers = try arguments.option("--workers") {
            guard let n = Int(workers), (1...256).contains(n) else { throw UsageError("--workers takes a number from 1 to 256, got '\(workers)'") }
            options.workers = n
        }
        options.force = arguments.flag("--force")
        verbose = arguments.flag("--verbose", "-v")
        for definition in try arguments.options("--set") {
            guard let equals = definition.firstIndex(of: "="), equals != definition.startIndex else {
                throw UsageError("--set takes NAME=VALUE, got '\(definition)'")
            }
            variables[String(definition[..<equals])] = String(definition[definition.index(after: equals)...])
        }
        let rest = try arguments.positionals()
        guard rest.count == 1 else { throw UsageError(rest.isEmpty ? "run needs a job file" : "run takes one job file, got \(rest.count)") }
        jobPath = rest[0]
    }

    func run() throws -> ExitCode {
        var job = try JobLoader.load(path: jobPath, set: variables)
        if let catalogue { job.catalogue = Paths.absolute(catalogue) }
        return try RunCommand.execute(job, options: options, verbose: verbose)
    }

    /// Runs a job through the scheduler and reports it: libvips started, the run recorded in the catalogue from
    /// beginning to end, failures on stderr as they happen, the summary at the end. `album import` runs its
    /// import-only job through here too.
    static func execute(_ job: Job, options: RunOptions, verbose: Bool) throws -> ExitCode {
        Vips.setWarningHandler { message in if verbose { Console.err("album: libvips: \(message)") } }
        var settings = Vips.Settings()
        settings.concurrency = 1
        try Vips.start(settings)
        let catalogue = try Catalogue(folder: job.catalogue, create: true)
        defer { catalogue.close() }
        let software = Software.current
        let run = try catalogue.beginRun(job: job.name, jobPath: job.path, jobHash: job.hash, started: Timestamp.now(), software: software)
        let scheduler = Scheduler(job: job, options: options, catalogue: catalogue, run: run, software: software) { step in
            guard verbose || step.status == .failed else { return }
            let detail = step.error.map { ": \($0)" } ?? ""
            Console.err("album: \(step.stage.rawValue) \(step.status.rawValue): \(step.path)\(detail)")
        }
        let summary: RunSummary
        do {
            summary = try scheduler.runAll()
        } catch let error as SQLiteError {
            throw CatalogueError("writing to catalogue \(job.catalogue) failed: \(error.message)")
        }
        try catalogue.finishRun(run, finished: Timestamp.now(), status: summary.status, counts: summary.countsJSON.text)
        Console.err(SummaryText.render(summary, job: job))
        return summary.failedCount > 0 ? .failures : .ok
    }
}
