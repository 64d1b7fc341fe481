import Foundation
import System
import Core
import Catalogue
import Stages
import JobFile
import Run
import Service

/// `album chunk RUNDIR [K]`: one chunk of a distributed run, run as the planning machine would have run it
/// (docs/distributed.md).
///
/// It first checks its node: the run folder, the catalogue and every import root must be there and not empty (an
/// unmounted share), and album and libvips must be the planner's versions; any of these is environment trouble,
/// exit 75, so the engine runs the chunk again, elsewhere if it can. Then it takes `chunk-K.lock` (a second copy
/// waits here), and runs the job over its share with `chunk-K.view.db` as its catalogue (`Catalogue.forChunk`:
/// `catalogue.db` itself, or the run's snapshot, hard-linked, with a log of its own): a killed chunk resumes where
/// its log stopped. Reading the catalogue in place, it first and last checks that nothing wrote it since planning. A chunk that finished, even with failed photos, writes
/// `chunk-K.done` and exits 0 (retrying a bad file helps nobody); a second copy that finds it exits 0 at once.
public struct ChunkRun {
    public var folder: RunFolder
    public var chunk: Int
    /// `--workers`; nil for the planner's `--workers`, else the cores the allocation has (`ChunkWorkers`).
    public var workers: Int?
    /// Who hears the chunk's events, made for its job once it is loaded.
    public var observer: (Job) -> any RunObserver
    public var mainStreams: Set<Console.Stream>
    public var verbose = false

    public init(folder: RunFolder, chunk: Int, workers: Int?, observer: @escaping (Job) -> any RunObserver, mainStreams: Set<Console.Stream>, verbose: Bool = false) {
        self.folder = folder
        self.chunk = chunk
        self.workers = workers
        self.observer = observer
        self.mainStreams = mainStreams
        self.verbose = verbose
    }

    /// Runs the chunk and returns its exit status: 0 finished, 75 environment trouble, 2 a job-file or usage
    /// error, 130/143 interrupted.
    public func run() throws -> ExitCode {
        let plan = try DistributedPlan.read(folder, onNode: true)
        guard (0..<plan.chunks).contains(chunk) else {
            throw DistributedError("chunk \(chunk) is not in run \(folder.path), which has chunks 0 to \(plan.chunks - 1)", exitCode: .usage)
        }
        let host = ProcessInfo.processInfo.hostName
        let software = Software.current
        guard software.album == plan.album, software.vips == plan.vips else {
            throw DistributedError("album \(software.album) with libvips \(software.vips) on \(host) differs from the planner's album \(plan.album) with libvips \(plan.vips); the chunk would not be merged. Install the same versions on every node", exitCode: .retry)
        }
        try requireShared(plan.catalogue + "/" + Catalogue.databaseName, "the catalogue")
        let seed = plan.seed(in: folder)
        try requireShared(seed, plan.readsCatalogue == nil ? "the run's snapshot" : "the catalogue")
        try requireShared(plan.jobPath, "the job file")
        var job = try JobLoader.load(path: plan.jobPath, set: plan.variables)
        guard job.hash == plan.jobHash else {
            throw DistributedError("the job file \(plan.jobPath) changed since run \(plan.run) was planned; plan a new distributed run (album dist abandon \(folder.path), then album run --distribute)", exitCode: .usage)
        }
        job.catalogue = plan.catalogue
        job.report = nil  // a chunk's run is part of the distributed run: `album report` of the merged catalogue shows it
        try requireRoots(of: job, host: host)
        let manifest = try ChunkManifest.read(folder, chunk: chunk)

        let lock: FileLock
        do {
            lock = try FileLock(path: folder.lock(chunk))
            try lock.lock()
        } catch {
            throw DistributedError("cannot lock \(folder.lock(chunk)): \(error)", exitCode: .retry)
        }
        defer { lock.close() }
        lock.replaceContents(Array("pid \(CurrentProcess.id) on \(host) since \(Timestamp.now())\n".utf8))
        if ChunkOutcome.read(folder, chunk: chunk) == nil, try Catalogue.isChunkDelta(database: folder.database(chunk)) {
            // A delta is made only after chunk-K.done was written: the chunk finished, and its outcome was lost since
            // (deleted by hand). It is written again from the delta's attempts; running the job on a delta would
            // take the photos it holds for the whole catalogue.
            let attempts = try Catalogue.chunkAttempts(database: folder.database(chunk), parent: plan.run)
            let last = attempts.last
            let outcome = ChunkOutcome(chunk: chunk, status: last?.status == "ok" ? "ok" : "failed", items: manifest.count,
                                       host: last?.host ?? host, started: attempts.first?.started ?? Timestamp.now(),
                                       finished: last?.finished ?? Timestamp.now(), workers: 1)
            try RunFolder.write(outcome.json.text + "\n", to: folder.outcome(chunk))
            Console.err("album: chunk \(chunk) of \(folder.path) had finished (\(folder.database(chunk)) is its delta) but \(folder.outcome(chunk)) was missing; written again, nothing to do")
            return .ok
        }
        if let done = ChunkOutcome.read(folder, chunk: chunk) {
            Console.err("album: chunk \(chunk) of \(folder.path) already finished on \(done.host) at \(Timestamp.local(done.finished)); nothing to do")
            return .ok
        }

        // Read in place, the catalogue must be the file the planner left, before the run and after it.
        try plan.requireCatalogueUnchanged("chunk \(chunk)", folder: folder)
        var options = plan.runOptions
        options.workers = workers ?? plan.workers ?? ChunkWorkers.allocated()
        let database = folder.database(chunk), view = folder.view(chunk), catalogue = plan.catalogue
        var jobRun = JobRun(job: job, options: options, observer: observer(job), mainStreams: mainStreams, verbose: verbose, announcesReport: false)
        // Read in place and unchanged (just checked), the catalogue is the file the planner's writer checked whole.
        let checked = plan.readsCatalogue != nil
        jobRun.chunk = ChunkShare(open: { try Catalogue.forChunk(folder: catalogue, view: view, seed: seed, checked: checked) },
                                  scan: ImportScan(files: ScannedPaths(manifest.files), unreadableFolders: manifest.unreadableFolders,
                                                   seconds: manifest.seconds, sidecars: manifest.sidecars),
                                  photos: Set(manifest.photos), parent: plan.run, chunk: chunk)
        let started = Timestamp.now()
        let status = try jobRun.run()
        switch status {
        case .ok, .failures:
            try plan.requireCatalogueUnchanged("chunk \(chunk)", folder: folder)
            let outcome = ChunkOutcome(chunk: chunk, status: status == .ok ? "ok" : "failed", items: manifest.count,
                                       host: host, started: started, finished: Timestamp.now(), workers: options.workers ?? 1)
            do {
                try RunFolder.write(outcome.json.text + "\n", to: folder.outcome(chunk))
            } catch {
                throw DistributedError("chunk \(chunk) finished, but \(folder.outcome(chunk)) could not be written: \(error)", exitCode: .retry)
            }
            // Its view becomes its delta: the rows of the photos it touched, its attempts and their steps. A chunk
            // killed before this leaves its view, which the merge compacts the same way.
            do {
                try Catalogue.compactChunk(view: view, database: database, parent: plan.run, chunk: chunk)
            } catch {
                Console.err("album: warning: chunk \(chunk) finished, but its view \(view) was not made its delta (\(DistributedLaunch.message(of: error))); the merge makes it")
            }
            return .ok
        case .interrupted, .terminated:
            return status
        case .usage:
            return .usage
        case .environment, .retry:
            return .retry
        }
    }

    /// Throws exit 75 when `path` is not on this node: the shared file system is not mounted (yet).
    private func requireShared(_ path: String, _ what: String) throws {
        guard FileSystem.exists(path) else {
            throw DistributedError("\(what) \(path) is not on \(ProcessInfo.processInfo.hostName): is the shared file system mounted on this node?", exitCode: .retry)
        }
    }

    /// Throws exit 75 when an import root is missing or an empty folder on this node: an unmounted share must never
    /// pass for a chunk whose every photo is missing.
    private func requireRoots(of job: Job, host: String) throws {
        for root in job.importStage?.from ?? [] {
            guard let status = FileStatus.of(root) else {
                throw DistributedError("the import root \(root) does not exist on \(host): is its file system mounted on this node?", exitCode: .retry)
            }
            if status.isDirectory {
                let listing = Directory.entries(of: root)
                if let failure = listing.failure {
                    throw DistributedError("the import root \(root) cannot be read on \(host): \(failure.reason)", exitCode: .retry)
                }
                if listing.names.isEmpty {
                    throw DistributedError("the import root \(root) is empty on \(host): is its file system mounted on this node?", exitCode: .retry)
                }
            }
        }
    }
}

/// How a chunk ended, `chunk-K.done`: written once it finished, so that `album merge` and `album dist status` know
/// it is whole, and a second copy knows there is nothing left to do.
public struct ChunkOutcome: Sendable, Equatable {
    public var chunk: Int
    /// `ok`, or `failed` when photos failed (they are recorded; the chunk still finished).
    public var status: String
    public var items: Int
    public var host: String
    public var started: String
    public var finished: String
    public var workers: Int

    package var json: JSONValue {
        .object([("chunk", .int(chunk)), ("status", .string(status)), ("items", .int(items)), ("host", .string(host)),
                 ("started", .string(started)), ("finished", .string(finished)), ("workers", .int(workers))])
    }

    /// Chunk `chunk`'s outcome in `folder`, nil when it has not finished.
    package static func read(_ folder: RunFolder, chunk: Int) -> ChunkOutcome? {
        guard let text = RunFolder.text(of: folder.outcome(chunk)), let json = JSONValue(parsing: text),
              json["chunk"]?.intValue == chunk, let status = json["status"]?.stringValue, let host = json["host"]?.stringValue,
              let started = json["started"]?.stringValue, let finished = json["finished"]?.stringValue else { return nil }
        return ChunkOutcome(chunk: chunk, status: status, items: json["items"]?.intValue ?? 0, host: host,
                            started: started, finished: finished, workers: json["workers"]?.intValue ?? 1)
    }
}

/// How many workers a chunk runs by default: the cores its allocation has. Slurm says it in
/// `SLURM_CPUS_PER_TASK` (with `--cpus-per-task`), else `SLURM_CPUS_ON_NODE` (what the task was given on its node);
/// a Kubernetes pod's CPU limit is its cgroup's `cpu.max` (quota over period, rounded up); otherwise the machine's
/// cores.
enum ChunkWorkers {
    static func allocated(environment: [String: String] = ProcessInfo.processInfo.environment,
                          cgroupLimit: String? = RunFolder.text(of: "/sys/fs/cgroup/cpu.max")) -> Int {
        for name in ["SLURM_CPUS_PER_TASK", "SLURM_CPUS_ON_NODE"] {
            if let text = environment[name], let cpus = Int(text), cpus > 0 { return cpus }
        }
        if let limit = cgroupLimit {
            let parts = limit.split(whereSeparator: \.isWhitespace)
            if parts.count == 2, let quota = Double(parts[0]), let period = Double(parts[1]), period > 0, quota > 0 {
                return max(1, Int((quota / period).rounded(.up)))
            }
        }
        return max(1, ProcessInfo.processInfo.activeProcessorCount)
    }
}
