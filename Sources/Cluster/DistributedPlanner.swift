import Foundation
import System
import Core
import Catalogue
import JobFile
import Run
import Plan

/// Plans a distributed run (`album run JOB --distribute ENGINE`): under the catalogue's writer lock, it records the
/// parent run, writes the run folder (one manifest per chunk, then `run.json`, last, so a folder with a `run.json` is
/// a whole plan), checkpoints the catalogue for its chunks to read in place (or, when a reader holds that up, writes
/// one snapshot of it) and lets the lock go; the engine then runs the chunks (docs/distributed.md).
///
/// Every file import's scan finds goes to the chunk its path hashes to, and every catalogue photo for phase 2 to the
/// chunk its id hashes to (`ChunkAssignment`), so a chunk runs exactly the chains a one-machine run would have run
/// for those items, by the same rules, against the same catalogue as it was.
public struct DistributedPlanner {
    public var job: Job
    public var options: RunOptions
    public var engine: DistributedEngine
    /// `--chunks`; nil for `defaultChunks`.
    public var chunks: Int?
    /// `--max-parallel`; nil for the machine's cores (local) or `clusterParallel`.
    public var maxParallel: Int?
    /// The job's `--set` variables, which every chunk loads it with.
    public var variables: [String: String]
    /// Take up the open distributed run of the same job file (its bytes unchanged) and engine instead of refusing:
    /// `album run --distribute local` run again after an interruption resumes.
    public var resumesOpenRun = false

    /// Items (files to import, catalogue photos to take on) in a default chunk: a few thousand. A chunk pays a fixed
    /// cost beside its items (its process, its node's checks, loading the catalogue through its view,
    /// a merge transaction): today about a one-machine no-op of the whole catalogue, so 5 000 items a chunk keep a
    /// no-op distributed rerun of 10 000 photos at 2.3x the one-machine no-op (5 chunks of 2 000: 4.1x), while a
    /// killed or slow chunk still holds minutes of work, not hours (Benchmarks/INVESTIGATION.md, section 22).
    public static let itemsPerChunk = 5_000

    /// The default number of chunks: ⌈items / `itemsPerChunk`⌉, at least as many as run at once (`parallel`, when
    /// the engine is throttled), never more than the items nor than the engine takes: a Kubernetes Indexed Job with
    /// `backoffLimitPerIndex` takes at most 100 000 completions. Slurm takes any number: when there are more chunks
    /// than its array may have tasks (`SlurmLimits`), one array task runs several.
    public static func defaultChunks(items: Int, parallel: Int?, engine: DistributedEngine = .local) -> Int {
        let share = (items + itemsPerChunk - 1) / itemsPerChunk
        let limit = engine == .k8s ? KubernetesManifests.maxCompletions : Int.max
        return max(1, min(items, max(share, parallel ?? 1), limit))
    }

    /// The default number of chunks running at once: locally, the cores divided by each chunk's workers; on a
    /// cluster, no throttle (the engine runs as many as the allocation has slots for: a throttle below that leaves
    /// nodes idle, section 17 again).
    public static func defaultParallel(engine: DistributedEngine, workers: Int?, chunks: Int) -> Int {
        guard engine == .local else { return chunks }
        return max(1, ProcessInfo.processInfo.activeProcessorCount / max(1, workers ?? 1))
    }

    public init(job: Job, options: RunOptions, engine: DistributedEngine, chunks: Int?, maxParallel: Int?, variables: [String: String]) {
        self.job = job
        self.options = options
        self.engine = engine
        self.chunks = chunks
        self.maxParallel = maxParallel
        self.variables = variables
    }

    /// What planning made.
    public struct Planned {
        public var folder: RunFolder
        public var plan: DistributedPlan
        public var manifests: [ChunkManifest]
    }

    /// Plans the run and returns its folder; the catalogue's lock is released when it returns.
    /// - Throws: `SourceError` for a missing root or an empty folder root where the catalogue knows photos (as
    ///   `album run`), `CatalogueError` when the catalogue is in use or a distributed run is open already.
    public func plan() throws -> Planned {
        guard let path = job.path else { throw DistributedError("a distributed run needs its job in a file, which every node reads", exitCode: .usage) }
        try SourceCheck.requireRoots(of: job)
        // It may resume the open run whose chunks read the catalogue in place; it writes nothing then.
        let catalogue = try Catalogue(folder: job.catalogue, create: true, writing: true, whileChunksRead: true)
        defer { catalogue.close() }
        if resumesOpenRun, let open = try catalogue.openDistributedRun() {
            let folder = RunFolder(catalogue: catalogue.folder, run: open.run)
            if let plan = try? DistributedPlan.read(folder), plan.engine == engine, plan.jobPath == path, plan.jobHash == job.hash {
                Console.err("album: resuming distributed run \(plan.run) (\(folder.path))")
                return Planned(folder: folder, plan: plan, manifests: try (0..<plan.chunks).map { try ChunkManifest.read(folder, chunk: $0) })
            }
        }
        try catalogue.requireNoOpenDistributedRun("album run --distribute")
        let scan = job.importScanInParallel()
        // Read in a scope of its own: the snapshot's read transaction ends before planning checkpoints the
        // catalogue's log (`prepareForReadingInPlace`), which a reader still open would hold up.
        let phaseTwo = try {
            let known = try CatalogueSnapshot(reading: catalogue)
            defer { known.close() }
            if !options.allowEmpty, SourceCheck.anyRootEmpty(scan) {
                try SourceCheck.requireFound(scan, of: job, counting: known.currentCount(under:))
            }
            return try known.photosAfterImport(scanning: Array(scan.files))
        }()
        let software = Software.current
        let resolved = try job.resolvingSelections(in: catalogue)
        let created = Timestamp.now()
        let items = scan.files.count + phaseTwo.count + scan.unreadableFolders.count
        let local = engine == .local ? DistributedPlanner.defaultParallel(engine: .local, workers: options.workers, chunks: 0) : nil
        let chunks = self.chunks ?? DistributedPlanner.defaultChunks(items: items, parallel: self.maxParallel ?? local, engine: engine)
        if engine == .k8s, chunks > KubernetesManifests.maxCompletions {
            throw DistributedError("--chunks \(chunks) is more than a Kubernetes Indexed Job with backoffLimitPerIndex takes (\(KubernetesManifests.maxCompletions) completions); give at most that", exitCode: .usage)
        }
        let maxParallel = self.maxParallel ?? DistributedPlanner.defaultParallel(engine: engine, workers: options.workers, chunks: chunks)
        let run = try catalogue.beginRun(job: job.name, jobPath: path, jobHash: job.hash, started: created, software: software,
                                         stages: resolved.appliedStages(software: software))
        let folder = RunFolder(catalogue: catalogue.folder, run: run)
        do {
            do { try Directory.create(folder.path) } catch { throw CatalogueError("cannot create the run folder \(folder.path): \(error.reason)") }
            try catalogue.beginDistributed(run: run, folder: RunFolder.relative(run: run), engine: engine.rawValue,
                                           chunks: chunks, created: created)
            var manifests = (0..<chunks).map(ChunkManifest.init(chunk:))
            for file in scan.files {
                let chunk = ChunkAssignment.chunk(of: file, chunks: chunks)
                manifests[chunk].files.append(file)
                if let sidecar = scan.sidecars[file] { manifests[chunk].sidecars[file] = sidecar }
                if let second = scan.seconds[file] { manifests[chunk].seconds[file] = second }  // a pair goes whole
            }
            for photo in phaseTwo {
                manifests[ChunkAssignment.chunk(of: photo.id, chunks: chunks)].photos.append(photo.id)
            }
            manifests[0].unreadableFolders = scan.unreadableFolders
            for manifest in manifests { try RunFolder.write(manifest.json.text, to: folder.manifest(manifest.chunk)) }
            var plan = DistributedPlan(run: run, engine: engine, chunks: chunks, maxParallel: maxParallel,
                                       catalogue: catalogue.folder, jobPath: path, jobHash: job.hash, variables: variables,
                                       software: software, created: created)
            plan.force = options.force
            plan.retryDamaged = options.retryDamaged
            plan.pixelBudgetMegapixels = options.pixelBudgetMegapixels
            plan.workers = options.workers
            // Last: the chunks read catalogue.db itself once its log is checkpointed whole, and nothing writes it
            // until they have finished (docs/distributed.md). A reader of an older state of the catalogue that keeps
            // the checkpoint from finishing makes this run keep one snapshot instead.
            try? FileSystem.remove(folder.snapshot)
            plan.readsCatalogue = try catalogue.prepareForReadingInPlace(run: run, runFolder: RunFolder.relative(run: run))
            if plan.readsCatalogue == nil {
                Console.err("album: another process reads an older state of \(catalogue.folder)/\(Catalogue.databaseName), so its log cannot be checkpointed now; this run's chunks read a snapshot of it (\(folder.snapshot)) instead of the catalogue itself")
                try catalogue.writeSnapshot(to: folder.snapshot)
            }
            try RunFolder.write(plan.json.prettyText + "\n", to: folder.plan)
            return Planned(folder: folder, plan: plan, manifests: manifests)
        } catch {
            // Nothing ran: the run is recorded as failed and closed, so it never blocks the catalogue.
            try? catalogue.endDistributed(run: run, state: "abandoned", status: "failed", counts: nil, at: Timestamp.now())
            Catalogue.removeInPlaceReaders(folder: catalogue.folder)
            throw error
        }
    }
}
