import System
import Foundation
import SQLite
import Vips
import Core
import Catalogue
import Stages
import JobFile
import Run
import Report
import Plan

/// One run of a job, from start to exit status: libvips started, the catalogue locked, the run recorded from
/// beginning to end, the scheduler over its photos, events to `observer`, and the report page when the job asks for
/// one. `album run` and `album import` (an import-only job) are two ways of making one.
///
/// ```
/// let status = try JobRun(job: job, options: RunOptions(), observer: reporters, mainStreams: [.standardError]).run()
/// ```
/// Errors that stop the run before or around its photos are thrown (`CatalogueError`, `MemoryLimitError`,
/// `VipsError`, …) for the command line to say and map to an exit status; a photo's failure is a step, not an error.
public struct JobRun {
    public var job: Job
    public var options: RunOptions
    /// Who hears the run's events: the reporters `--log-format` chose.
    public var observer: any RunObserver
    /// The streams that carry what the run was asked for: a failed write to one of them stops the run as a first
    /// SIGINT would (`StopReason.outputClosed`) and makes it exit 3. Empty when the run writes nothing that matters.
    public var mainStreams: Set<Console.Stream>
    /// Print libvips' warnings, and the memory limit's note even when it reduced nothing.
    public var verbose: Bool
    /// Say on stderr where the report page went (not when stdout carries JSON events, whose reader has the path).
    public var announcesReport: Bool
    /// Set for one chunk of a distributed run (`ChunkRun`): its catalogue, its share, its parent run.
    public var chunk: ChunkShare? = nil
    /// The files to import when the caller chose them (`album watch`: its batch's complete files, out of the job's
    /// scan); nil for the job's whole scan.
    public var scan: ImportScan? = nil

    public init(job: Job, options: RunOptions, observer: any RunObserver, mainStreams: Set<Console.Stream>,
                verbose: Bool = false, announcesReport: Bool = true) {
        self.job = job
        self.options = options
        self.observer = observer
        self.mainStreams = mainStreams
        self.verbose = verbose
        self.announcesReport = announcesReport
    }

    /// Runs the job and returns the exit status its outcome means (`RunSummary.exitCode`, made 1 by a report
    /// that could not be written, 3 by a failed write to a main stream).
    public func run() throws -> ExitCode {
        let verbose = self.verbose
        Vips.setWarningHandler { message in if verbose { Console.err("album: libvips: \(message.shown)") } }
        var settings = Vips.Settings()
        settings.blockUntrustedLoaders = !(job.importStage?.allowUntrustedLoaders ?? false)
        // Before anything is opened: too few descriptors would stop the process mid-run.
        try requireOpenFiles()
        // A root that does not exist stops the run before a catalogue folder is made under it.
        try SourceCheck.requireRoots(of: job, except: options.listedPaths)
        // An export folder this user cannot write stops the run with one message, not one failure per photo.
        if chunk == nil { try ExportRootCheck.requireWritable(job) }
        try Vips.start(settings)
        let catalogue = try chunk?.open() ?? Catalogue(folder: job.catalogue, create: true, writing: true)
        defer { catalogue.close() }
        // A chunk's view is the catalogue as planned, which records its own distributed run as open.
        if chunk == nil { try catalogue.requireNoOpenDistributedRun("album run") }
        let scan = chunk?.scan ?? self.scan ?? job.importScanInParallel()
        if chunk == nil, !options.allowEmpty, SourceCheck.anyRootEmpty(scan) {
            let known = try CatalogueSnapshot(reading: catalogue)
            defer { known.close() }
            try SourceCheck.requireFound(scan, of: job, counting: known.currentCount(under:))
        }
        var options = try affordable()
        if let chunk { options.photosAfterImport = chunk.photos }
        let job = try self.job.resolvingSelections(in: catalogue)
        // A chunk sees only its share of the photos. Only the path column is read, and only for a `path:` glob.
        if chunk == nil, job.selectsByPath {
            for warning in job.unmatchedPathWarnings(among: scan.files + (try catalogue.photoPaths())) { Console.err(warning) }
        }
        let software = Software.current
        let run = try catalogue.beginRun(job: job.name, jobPath: job.path, jobHash: job.hash, started: Timestamp.now(), software: software,
                                         stages: job.appliedStages(software: software), parent: chunk?.parent, chunk: chunk?.chunk)
        let jobRun = chunk == nil ? try catalogue.jobRunNumber(run) : nil
        let scheduler = Scheduler(job: job, options: options, catalogue: catalogue, run: run, jobRun: jobRun, software: software,
                                  observer: observer)
        // A failed write to the run's own output stops it as a first SIGINT would (`StopReason.outputClosed`).
        let mainStreams = self.mainStreams
        Console.onFailure { failure in
            if mainStreams.contains(failure.stream) { scheduler.requestStop(.outputClosed(failure.description), announceLater: true) }
        }
        defer { Console.onFailure(nil) }
        if let failure = outputFailure() { scheduler.requestStop(.outputClosed(failure.description)) }
        let summary: RunSummary
        do {
            summary = try scheduler.runAll(scan: scan, recording: { summary in
                try catalogue.finishRun(run, finished: Timestamp.now(), status: summary.status, counts: summary.recordedCounts.text)
            }, onSecondSignal: { SecondSignal.end($0) })
        } catch let error as SQLiteError where error.isCorrupt {
            // SQLITE_CORRUPT or SQLITE_NOTADB met during the run: not even the run row is written any more.
            throw Catalogue.damaged(catalogue.folder + "/" + Catalogue.databaseName, error.message, duringRun: true)
        } catch let error as SQLiteError {
            // No summary to record: readers count the run's rows, and say its skipped steps were not counted.
            try? catalogue.finishRun(run, finished: Timestamp.now(), status: "failed", counts: nil)
            throw CatalogueError("writing to catalogue \(job.catalogue) failed: \(error.message)")
        }
        var status = summary.exitCode
        if let report = job.report {
            do {
                try ReportPage.write(try RunReport.load(from: catalogue, run: run), catalogueFolder: catalogue.folder, to: report)
                if announcesReport { Console.err("report: \(report)") }
            } catch {
                Console.error("the run finished, but its report could not be written to \(report): \(error)")
                status = summary.exitCode == .ok ? .failures : summary.exitCode
            }
        }
        if let failure = outputFailure() {
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

    /// The first failed write to one of the main streams, if any.
    private func outputFailure() -> Console.Failure? {
        Console.Stream.allCases.lazy.filter(mainStreams.contains).compactMap(Console.failure(of:)).first
    }
}
