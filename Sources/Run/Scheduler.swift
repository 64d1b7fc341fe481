import Dispatch
import Foundation
import Synchronization
import Vips
import Core
import Catalogue
import Stages
import JobFile
import System

/// Streams every photo of a job through its stage chain, a bounded number at a time. The one home of album's
/// concurrency: worker threads, the catalogue's serial owner, the progress timer, signals, and the state they share.
///
/// libvips' maintainers advise parallelism across images with few threads per image for batch work, so each
/// worker runs one photo's whole chain, and libvips' own pool is set to one thread per pipeline (`Vips.Settings`).
public final class Scheduler: Sendable {
    /// A unit of work: a file to import, a catalogue photo for the stages after import, or the exports of a path
    /// this run found with a photo's bytes (`processAlias`).
    /// The rare kinds are `indirect` (a pointer), so a run's list of items costs a file's path, sidecar and identity
    /// each, not a whole `PhotoRecord`'s room (an enum is as large as its largest case: about 560 bytes an item before).
    /// A file's identity is the scan's stat of it (`ImportScan.identities`), so import does not stat it again.
    package enum Item: Sendable {
        case file(String, sidecar: String? = nil, identity: FileIdentity? = nil)
        indirect case photo(PhotoRecord), alias(PhotoAlias), unreadableFolder(UnreadableFolder)
    }

    package let job: Job
    package let options: RunOptions
    package let workers: Int
    package let owner: CatalogueOwner
    package let run: Int64
    package let software: Software
    package let observer: any RunObserver
    package let budget: PixelBudget
    package let state: Mutex<State>
    /// The catalogue as the run began (set once in `runAll`, before any worker starts).
    package let snapshot = Mutex<CatalogueSnapshot?>(nil)
    /// Each stage's parameters, serialised and hashed once for the whole run: `job.stages`' in order, and import's.
    let preparedStages: [StageParameters]
    let preparedImport: StageParameters?
    /// The second original of each pair import's scan found (`ImportScan.seconds`), set once in `runAll`.
    package let seconds = Mutex<[String: String]>([:])
    /// Whether a file import finds is probed before its chain (`probe`).
    let probesFiles: Bool
    /// The catalogue's id, for the export tags (nil when it cannot be read: each export then asks, and fails).
    package let catalogueID: String?
    /// The catalogue's folder, held open for the run (`StageContext.catalogueFiles`); nil when it could not be opened.
    let catalogueFiles: OpenFolder?
    /// The `stopping` events written from another thread (`requestStop`'s `announceLater`): the run's summary waits
    /// for them, so that a stop is announced before the run's end.
    private let announcements = DispatchGroup()

    package struct State {
        package var summary: RunSummary
        /// The photos phase 1 has settled (`PhotoRecord.settled`): taken through their chain, or replaced by the
        /// new version of their file it imported. None joins phase 2, and a second file with a settled photo's
        /// bytes goes no further than import.
        package var settled = SettledPhotos()
        /// How many of the snapshot's current photos phase 1 settled, counted where that is known without asking
        /// (`probe`): when it is all of them (`CatalogueSnapshot.currentCount`), phase 2 has none to look for.
        package var settledCurrent = 0
        /// The paths phase 1 recorded as other names of a photo (`ImportMatch.newAlias`): their exports are made
        /// after phase 2's photos.
        package var aliasesFound: [PhotoAlias] = []
        package var total = 0
        var photosDone = 0
        var photosFailed = 0
        package var stop: StopReason?
        /// The summary is taken: a stop asked for now changes nothing.
        package var ended = false
    }

    /// - Parameter jobRun: which run of its job this is (`RunSummary.jobRun`), nil when it is not counted as one.
    public init(job: Job, options: RunOptions, catalogue: Catalogue, run: Int64, jobRun: Int? = nil, software: Software,
                observer: any RunObserver) {
        self.job = job
        self.options = options
        self.workers = max(1, options.workers ?? job.workers ?? ProcessInfo.processInfo.activeProcessorCount)
        self.owner = CatalogueOwner(catalogue)
        self.run = run
        self.software = software
        self.observer = observer
        self.budget = PixelBudget(megapixels: options.pixelBudgetMegapixels)
        self.state = Mutex(State(summary: RunSummary(run: run, jobRun: jobRun, workers: workers)))
        self.preparedStages = job.stages.map {
            StageParameters(stage: type(of: $0).stage, parameters: $0.parameters, software: software)
        }
        self.catalogueID = try? catalogue.identity()
        self.catalogueFiles = OpenFolder(job.catalogue)
        self.probesFiles = Scheduler.probes(job, options: options)
        self.preparedImport = job.importStage.map { StageParameters(stage: .import, parameters: $0.parameters, software: software) }
    }

    /// Runs the job until every photo is through or a stop is requested, and returns what happened.
    /// - Parameter scan: import's scan when the caller made it already (`Job.importScan`); nil to scan here.
    /// - Parameter record: records the run's end in the catalogue; it is called before the `run-finished` event, so
    ///   that the event, like every `done` step event, announces what is committed.
    /// - Parameter onSecondSignal: called on the signal queue when a second SIGINT or SIGTERM arrives, with its
    ///   number; the command line ends the process there (`SecondSignal`). By default a second signal does nothing more.
    /// - Throws: a catalogue write failure, after the workers have stopped.
    public func runAll(scan given: ImportScan? = nil, recording record: (RunSummary) throws -> Void = { _ in },
                       onSecondSignal: @escaping @Sendable (Int32) -> Void = { _ in }) throws -> RunSummary {
        let started = DispatchTime.now()
        // The stop takes effect on the signal's queue as the signal is read; its `stopping` event, which may wait on a
        // blocked output, is written from another thread.
        let signals = try SignalWatch(onFirst: { [self] number in requestStop(.signal(number), announceLater: true) },
                                      onSecond: onSecondSignal)
        defer { signals.cancel() }
        let scan = given ?? job.importScanInParallel()
        let files = scan.files
        seconds.withLock { $0 = scan.seconds }
        state.withLock { $0.summary.passedOver = scan.passedOver }
        // A connection of its own for each worker and this thread (a chunk's view: through the writer, `owner`).
        let owner = self.owner
        let known = try owner.sync {
            try CatalogueSnapshot(reading: $0, connections: workers + 1, through: { body in try owner.sync { try body($0) } })
        }
        // Its read transaction ends with the run, before the catalogue's writer closes (and checkpoints).
        defer { known.close() }
        snapshot.withLock { $0 = known }
        state.withLock { $0.summary.states[.superseded] = known.supersededCount }
        let share = options.photosAfterImport
        let expected = try scan.unreadableFolders.count + files.count + known.countAfterImport(scanning: files, share: share)
        state.withLock { $0.total = expected }
        observer.runStarted(run: run, job: job.name, photos: expected)
        let ticker = startProgressTimer(started: started)
        defer { ticker.cancel() }

        // Phase 1: every file import finds, each through its whole chain, so the first exports appear at once. Its
        // items are made as they are taken: the unreadable folders first, then the files, with the scan's stat of each.
        let folders = scan.unreadableFolders
        var finished = perform(count: folders.count + files.count) { index in
            guard index >= folders.count else { return .unreadableFolder(folders[index]) }
            let file = files[index - folders.count]
            return .file(file, sidecar: scan.sidecars[file], identity: scan.identity(at: index - folders.count))
        }
        // Phase 2: the catalogue's other current photos, for the stages after import; then the exports of the
        // paths phase 1 found with a photo's bytes, each after its photo's chain.
        if finished, !job.stages.isEmpty {
            let found = state.withLock { $0.aliasesFound }
            // A photo whose own file phase 1 found holding another photo's bytes (recorded as that photo's alias) is
            // superseded from now on (`PhotoRecord.supersededIDs`): it joins no stage, and its name's export is the
            // other photo's to take over.
            let displaced: Set<String>, photos: [PhotoRecord]
            do {
                displaced = try known.displaced(by: found).union(known.pairedAway(scan.seconds))
                // A rerun whose probes settled every current photo has none left: no walk of every photo id.
                let settledAll = known.currentCount.map { $0 == state.withLock { $0.settledCurrent } } ?? false
                photos = try settledAll ? [] : known.photosAfterImport(settled: state.withLock { $0.settled }, share: options.photosAfterImport)
                    .filter { !displaced.contains($0.id) }
            } catch {
                _ = owner.finish()  // the catalogue could not be read: the run ends here, its writes so far kept
                throw error
            }
            if !displaced.isEmpty { state.withLock { $0.summary.states[.superseded, default: 0] += displaced.count } }
            let aliases = job.stages.contains(where: \.writesEachPath) ? found : []
            state.withLock { $0.total = $0.photosDone + photos.count + aliases.count }
            finished = perform(photos.map(Item.photo) + aliases.map(Item.alias))
        }
        if let error = owner.finish() { throw error }
        let summary = state.withLock { state in
            state.summary.seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
            state.summary.status = state.stop?.status ?? (state.summary.failedCount > 0 ? "failed" : "ok")
            state.summary.stop = state.stop
            state.summary.abandoned = !finished
            state.ended = true
            return state.summary
        }
        try record(summary)
        announcements.wait()
        observer.runFinished(summary)
        return summary
    }

    /// Asks the run to start no new photos. The first reason wins.
    ///
    /// `announceLater` is for a caller that may be inside an observer's own output lock (a failed write, reported
    /// by `Console` on the writing thread): the stop takes effect at once, and its `stopping` event is written from
    /// another thread.
    public func requestStop(_ reason: StopReason, announceLater: Bool = false) {
        let first = state.withLock { state -> Bool in
            guard state.stop == nil, !state.ended else { return false }
            state.stop = reason
            return true
        }
        guard first else { return }
        if announceLater {
            announcements.enter()
            DispatchQueue.global().async { [self] in
                observer.stopping(reason)
                announcements.leave()
            }
        } else {
            observer.stopping(reason)
        }
    }

    private var stopRequested: Bool { state.withLock { $0.stop != nil } }

    /// Runs `items` on `workers` threads, each pulling the next item when it finishes one (`WorkQueue`: a new photo
    /// whose decode does not fit the memory budget beside those in their chains is put aside until it does).
    /// - Returns: false when a stop left photos in flight past the grace period (they were abandoned).
    private func perform(_ items: [Item]) -> Bool {
        perform(count: items.count) { items[$0] }
    }

    /// Runs the `count` items `item` makes, one index at a time, in order (`perform`).
    private func perform(count: Int, item: @escaping @Sendable (Int) -> Item) -> Bool {
        guard count > 0, !stopRequested else { return true }
        let work = WorkQueue(count: count, item: item, capacity: budget.capacity)
        let group = DispatchGroup()
        let queue = DispatchQueue(label: "album.workers", attributes: .concurrent)
        for _ in 0..<min(workers, count) {
            queue.async(group: group) { [self] in
                // A worker's contexts, made once: a context made or copied per photo retained and released every
                // closure and string it holds, shared by all the workers, whose reference counts then bounced
                // between processors (a fifth of a no-op rerun's phase 1 at 10^5, INVESTIGATION.md section 39).
                var context = self.context
                var probing = probesFiles ? probingContext(context) : nil
                let known = KnownPhoto()
                while let taken = work.take(need: { decodeNeed($0, known: known) }, stopped: { stopRequested || owner.firstError != nil }) {
                    process(taken.item, context: &context, probing: &probing, known: known)
                    work.finished(taken)
                }
            }
        }
        // Wait for the workers; once a stop is requested, give photos in flight a grace period, then abandon them.
        while group.wait(timeout: .now() + .milliseconds(200)) == .timedOut {
            guard stopRequested else { continue }
            return group.wait(timeout: .now() + options.graceSeconds) == .success
        }
        return true
    }

    private func startProgressTimer(started: DispatchTime) -> DispatchSourceTimer {
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "album.progress"))
        timer.schedule(deadline: .now() + 1, repeating: 1)
        timer.setEventHandler { [self] in
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
            observer.progress(state.withLock {
                RunProgress(done: $0.photosDone, total: $0.total, failed: $0.photosFailed, seconds: seconds)
            })
        }
        timer.resume()
        return timer
    }

    package var context: StageContext {
        let owner = self.owner, budget = self.budget
        var context = StageContext(catalogueFolder: job.catalogue, run: run, software: software,
                                   catalogue: { body in try owner.sync(body) },
                                   catalogueCommitted: { body in try owner.syncCommitted(body) },
                                   withPixels: { pixels, body in try budget.withReservation(pixels, body) },
                                   failOn: (job.importStage ?? StageRegistry.source(from: [])).failOn, force: options.force)
        context.catalogueID = catalogueID
        context.catalogueFiles = catalogueFiles
        context.pendingSyncs = owner.syncs
        let seconds = self.seconds.withLock { $0 }
        if !seconds.isEmpty { context.secondOriginalPath = { seconds[$0] } }
        return snapshot.withLock { $0 }?.answering(context) ?? context
    }
}
