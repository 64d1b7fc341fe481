import Foundation
import System
import Core
import Catalogue
import Stages
import JobFile
import Run
import Plan

/// `album watch JOB`: the job's import roots watched with inotify (`DirectoryWatch`), and the job run, as
/// `album run` runs it, over each batch of files once they are complete (`PendingFiles`).
///
/// At start every file already there is looked at, so nothing put there before is missed: the first batch is the
/// files found, once they stop changing (those the catalogue has are skipped, as in any run). Then each batch is
/// one `JobRun` whose import scan is the job's own, narrowed to the batch's complete files: a file still being
/// written is never read, and only those files go through the stages (no phase 2 over the catalogue's other photos).
/// The run takes the catalogue's writer lock and closes the catalogue when it ends, so `album caption` or another
/// run can take it between batches (waiting with `--wait`). A batch due while another album holds the lock waits
/// for it, looking every tick, so that a signal still stops the watch (`--wait=SECONDS` bounds that wait).
///
/// A first SIGINT or SIGTERM between batches stops the watch at once; during one, the run stops as `album run`
/// stops (`Scheduler.runAll`), then the watch. Either way album exits 130 or 143; a second signal ends it at once
/// (`SecondSignal`).
public struct JobWatch {
    public var job: Job
    /// The quiet interval in seconds before a batch, and how long a file found by a scan must stay unchanged.
    public var settle: Double = 1
    /// Run one batch, when the files there at start are complete, then stop.
    public var once = false
    /// One batch's run, given its scan: `album watch` makes it from its flags, as `album run` does.
    public var makeRun: (ImportScan) -> JobRun

    /// How long one wait for events lasts: between two, the loop looks at signals and at files still settling.
    static let tickMilliseconds: Int32 = 200

    public init(job: Job, makeRun: @escaping (ImportScan) -> JobRun) {
        self.job = job
        self.makeRun = makeRun
    }

    /// Watches until a signal (130, 143), a batch's output closes (3), or with `once` one batch ends (its status).
    /// - Throws: what a run throws (`SourceError`, `CatalogueError`, …), or a `SystemError` from inotify.
    public func run() throws -> ExitCode {
        guard let stage = job.importStage else {
            throw SourceError("album watch needs a job with an import stage: it watches the stage's folders", exitCode: .usage)
        }
        try SourceCheck.requireRoots(of: job)
        let signals = WatchSignals(onSecond: { SecondSignal.end($0) })
        defer { signals.end() }
        let watch = try DirectoryWatch()
        defer { watch.close() }
        let scope = WatchScope(stage: stage, derived: job.derivedFiles)
        var pending = PendingFiles(settle: settle)
        for root in scope.roots { add(root, to: watch, scope: scope, pending: &pending) }
        Console.err("album: watching \(watch.folderCount) folder\(watch.folderCount == 1 ? "" : "s"); Ctrl-C to stop")
        try signals.listen()
        var status = ExitCode.ok
        // `--wait=SECONDS` bounds how long a due batch waits for another album's lock; without it, as long as it takes.
        let waitLimit = CatalogueLock.wait?.seconds
        var waitingSince: Double?
        while true {
            if let number = signals.received { return stopped(by: number) }
            let events = try watch.events(waitingMilliseconds: JobWatch.tickMilliseconds)
            let now = JobWatch.now
            for event in events { take(event, watch: watch, scope: scope, pending: &pending, at: now) }
            pending.check(at: now, status: FileStatus.of)
            guard once ? pending.allReady(at: now) : pending.isDue(at: now) else { continue }
            // The lock is waited for here, a look every tick, so that a signal still stops the watch meanwhile.
            if let holder = CatalogueLock.heldBy(folder: job.catalogue) {
                let since = waitingSince ?? now
                if waitingSince == nil {
                    Console.err("album: catalogue \(job.catalogue) is in use by \(holder); the next batch waits for it")
                    waitingSince = now
                }
                if let waitLimit, now - since >= waitLimit {
                    throw CatalogueError("catalogue \(job.catalogue) is still in use by \(holder) after waiting \(waitLimit) s; "
                                         + "wait longer (--wait=SECONDS, or no --wait for no limit), or stop it, then watch again")
                }
                continue
            }
            waitingSince = nil
            let batch = pending.ready(at: now)
            signals.pause()  // the run's own SignalWatch takes the signals now
            if let number = signals.received { return stopped(by: number) }
            var scan = job.importScanInParallel()
            // A pair goes with the batch when either of its files is in it (a camera writes the RAW after the JPEG), and
            // a photo whose sidecar is in the batch goes too: its facts are updated (its pixels only if they changed).
            let seconds = scan.seconds, sidecars = scan.sidecars
            scan.files = scan.files.kept {
                batch.contains($0) || seconds[$0].map(batch.contains) == true || sidecars[$0].map(batch.contains) == true
            }
            var run = makeRun(scan)
            // Only the batch's files go through the stages: the catalogue's other photos are not this batch's.
            run.options.photosAfterImport = []
            let ended: ExitCode
            do {
                ended = try CatalogueLock.$wait.withValue(nil) { try run.run() }
            } catch let error as CatalogueError where error.lockHeld {
                // Taken by another album between the look and the run: the batch waits for it again.
                try signals.listen()
                continue
            }
            try signals.listen()
            pending.take(batch, at: JobWatch.now)
            switch ended {
            case .interrupted, .terminated, .environment: return ended
            case .failures: status = .failures
            default: break
            }
            if once { return status }
        }
    }

    /// Says that the watch stopped, and the status a signal's stop exits with.
    private func stopped(by number: Int32) -> ExitCode {
        let name = number == ProcessSignals.terminate ? "SIGTERM" : "SIGINT"
        Console.err("album: stopped watching (\(name)); every batch that ran is in the catalogue.")
        return number == ProcessSignals.terminate ? .terminated : .interrupted
    }

    /// What one event means for the files waiting: a new folder is watched and its files found (they may have been
    /// written before its watch existed); lost events mean every folder is looked at again.
    private func take(_ event: DirectoryWatch.Event, watch: DirectoryWatch, scope: WatchScope, pending: inout PendingFiles,
                      at now: Double) {
        switch event.kind {
        case .overflow:
            Console.err("album: the kernel dropped file events; looking at every watched folder again")
            pending.lostEvents(at: now)
            for root in scope.roots { add(root, to: watch, scope: scope, pending: &pending) }
        case .created where event.isFolder, .movedIn where event.isFolder:
            add(event.path, to: watch, scope: scope, pending: &pending)
        case _ where event.isFolder:
            break  // a folder removed: its watch goes with it, and its files stop being found (`check`)
        case _ where !scope.takes(event.path):
            break
        case .closedAfterWrite, .movedIn:
            if !scope.isDerived(event.path) { pending.saw(event.path, .complete, at: now) }
        case .created:
            pending.saw(event.path, .found, at: now)
        case .modified:
            pending.saw(event.path, .written, at: now)
        case .removed:
            pending.removed(event.path)
        }
    }

    /// Watches `folder` and the folders under it the scope enters, and records the files already in them as found.
    private func add(_ folder: String, to watch: DirectoryWatch, scope: WatchScope, pending: inout PendingFiles) {
        let tree = watch.addTree(folder, entering: scope.entering)
        let now = JobWatch.now
        for file in tree.files where scope.takes(file) { pending.saw(file, .found, at: now) }
        for failure in tree.failures where !failure.notFound { Console.error("cannot watch: \(failure)") }
    }

    /// Seconds on a clock that only goes forward.
    package static var now: Double { ProcessInfo.processInfo.systemUptime }
}
