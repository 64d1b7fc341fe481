import Foundation
import System
import Core
import Catalogue
import Media
import Stages
import JobFile
import Run

/// What `album run` would do, worked out without reading pixels or writing anything: `album plan` and
/// `album run --dry-run`.
///
/// It takes the photos the run takes, by the run's own rules: what import makes of an entry before reading it
/// (`ImportStage.entry`), whether a file is unchanged (`FileIdentity.isUnchanged`), which photos are current and
/// which import settles (`CatalogueSnapshot`, `PhotoRecord.settle`); then each stage's `plan`. A file still to
/// import is planned as the new photo its import would record (`Planner+Import.swift`).
public struct Planner {
    /// Per stage: how many photos each verdict applies to.
    public struct Counts: Sendable, Equatable {
        public var toDo = 0
        /// Of `toDo`: photos still to import that a `select:` on what only their header says (`taken`, `caption`,
        /// `camera`, `format`) counts in. The plan reads no header, so `toDo` is at most this many more than the
        /// run's steps: "up to N" (`PlanCommand`).
        public var toDoIfHeaderMatches = 0
        public var upToDate = 0
        public var leftOut = 0
    }

    /// What the run would do with one photo at one stage.
    public enum Verdict: String, Sendable, Equatable {
        /// A step the run makes (done, or failed).
        case toDo = "to do"
        /// A step the run skips as up to date.
        case upToDate = "up to date"
        /// No step for this photo and stage: `select:` leaves it out, or import never opens the entry.
        case leftOut = "left out"
    }

    /// The plan of one job.
    public struct Plan: Sendable {
        public var job: Job
        public var counts: [StageName: Counts] = [:]
        /// One line per photo and stage, for `--verbose`: (path, stage, verdict).
        public var entries: [(path: String, stage: StageName, verdict: String)] = []
        /// What import's scan passed over: derived files, and files that match no include pattern.
        public var scan = ImportScan()
        /// The photos the run would meet and not take through its stages, by state, counted as the run counts
        /// them (`RunSummary.states`): damaged ones it would not retry, missing ones, superseded versions.
        public var states: [PhotoState: Int] = [:]
        /// `path:` globs in the job's selections that match no photo (`Job.unmatchedPathWarnings`), for stderr.
        public var warnings: [String] = []
    }

    package let job: Job
    package let force: Bool
    /// Plan even when an import folder gave no photos where the catalogue knows some (`--allow-empty`).
    package let allowEmpty: Bool
    /// Plan damaged photos as the run would with `--retry-damaged`: through their stages again.
    package let retryDamaged: Bool
    /// Keep `Plan.entries`, one line per photo and stage (`--verbose`); without them a plan's memory does not grow
    /// with the library (its counts are kept either way).
    public var keepsEntries = true

    public init(job: Job, force: Bool = false, allowEmpty: Bool = false, retryDamaged: Bool = false) {
        self.job = job
        self.force = force
        self.allowEmpty = allowEmpty
        self.retryDamaged = retryDamaged
    }

    /// Plans the job against its catalogue (read only; a missing catalogue means everything is to do).
    /// - Throws: `SourceError` where the run would stop on its import roots (`SourceCheck`), with the same status.
    public func plan() throws -> Plan {
        try SourceCheck.requireRoots(of: job)
        let catalogue = FileSystem.exists(job.catalogue + "/" + Catalogue.databaseName)
            ? try CatalogueReader(folder: job.catalogue) : nil
        defer { catalogue?.close() }
        let job = try self.job.resolvingSelections(in: catalogue)
        let snapshot = try CatalogueSnapshot(reading: catalogue)
        defer { snapshot.close() }
        let reader = PlanningReader(catalogue)
        let context = snapshot.answering(StageContext(
            catalogueFolder: job.catalogue, run: 0, software: Software.current,
            // A plan writes nothing: its stages' `plan` methods read through `reading`, and a write has no door.
            catalogue: { _ in throw CatalogueError("album plan writes nothing to the catalogue") },
            reading: { body in if let catalogue = reader.catalogue { try body(catalogue) } }, force: force))
        var plan = Plan(job: job)
        plan.states[.superseded] = snapshot.supersededCount
        // Phase 1, as the scheduler runs it: the folders import cannot list, then every entry it finds.
        var progress = PlanProgress()
        try snapshot.forEachCurrentSize { progress.knownSizes.insert($0) }
        if let importStage = job.importStage {
            let scan = job.importScanInParallel()
            plan.scan = scan
            if !allowEmpty, SourceCheck.anyRootEmpty(scan) {
                try SourceCheck.requireFound(scan, of: job, counting: snapshot.currentCount(under:))
            }
            for folder in scan.unreadableFolders {
                note(&plan, path: folder.path, stage: .import, .toDo, "(it fails: cannot read this folder)")
            }
            // The scan's stat where it made one, as the run's import takes it (`ImportScan.identities`); import's own
            // entry of the others, made once for both walks and kept only for them (a few: links, FIFOs, roots).
            var stated: [Int: ImportEntry] = [:]
            for index in scan.files.indices where scan.identity(at: index) == nil {
                stated[index] = importStage.entry(atPath: scan.files[index])
            }
            let entry = { (index: Int) -> ImportEntry in scan.identity(at: index).map(ImportEntry.file) ?? stated[index] ?? .failed("not scanned") }
            for (index, path) in zip(scan.files.indices, scan.files) {
                guard case .file(let identity) = entry(index), try snapshot.isToImport(path, identity) else { continue }
                progress.sizesToImport[identity.bytes, default: 0] += 1
            }
            for (index, path) in zip(scan.files.indices, scan.files) {
                try planImport(of: path, sidecar: scan.sidecars[path], entry: entry(index), job: job, snapshot: snapshot,
                               progress: &progress, in: &plan, context: context)
            }
        }
        if job.selectsByPath {
            var paths = Array(plan.scan.files)
            try snapshot.forEachCurrentPhoto { paths.append($0.path) }
            plan.warnings = job.unmatchedPathWarnings(among: paths)
        }
        // Phase 2: the current photos phase 1 did not settle; then the exports of the names found for known bytes.
        if !job.stages.isEmpty {
            // As the run: a photo whose own file phase 1 found holding another photo's bytes is superseded now.
            // And a photo whose own file the scan paired as another's second original (`CatalogueSnapshot.pairedAway`).
            let displaced = try snapshot.displaced(by: progress.aliasesFound.map(\.alias))
                .union(snapshot.pairedAway(plan.scan.seconds))
            if !displaced.isEmpty { plan.states[.superseded, default: 0] += displaced.count }
            for photo in try snapshot.photosAfterImport(settled: progress.settled) where !displaced.contains(photo.id) {
                try followKeeping(snapshot.withExportPaths(PhotoWork(photo: photo, recipe: try Recipe(canonicalJSON: photo.filterRecipe))),
                                  beforeImport: false, foundByImport: false, of: job, progress: &progress, in: &plan, context: context)
            }
            try planAliasExports(of: job, progress, in: &plan, context: context)
        }
        return plan
    }

    /// Plans the stages after import of `job` (its selections resolved) for one photo: in the catalogue, or still
    /// to import (`beforeImport`: a `select:` on what only its header says counts it in, noted as such). A photo
    /// the run would hold back (`PhotoRecord.heldBack`: missing, or damaged and not retried) is counted in
    /// `states` and left out of every stage; `foundByImport` says whether phase 1 found its file just now.
    /// - Returns: the work as the chain leaves it (its look, its thumbnail).
    @discardableResult
    package func follow(_ work: PhotoWork, beforeImport: Bool, foundByImport: Bool, of job: Job, in plan: inout Plan,
                context: StageContext) throws -> PhotoWork {
        var work = work
        let selected = Planner.matches(job.select, work.photo, beforeImport: beforeImport)
        if selected != false, !job.stages.isEmpty, let held = work.photo.heldBack(foundByImport: foundByImport, retryDamaged: retryDamaged) {
            plan.states[held, default: 0] += 1
            for stage in job.stages {
                note(&plan, path: work.photo.path, stage: type(of: stage).stage, .leftOut,
                     held == .damaged ? "(damaged, not retried)" : "(\(held.rawValue))")
            }
            return work
        }
        for stage in job.stages {
            let name = type(of: stage).stage
            let own = Planner.matches(stage.select, work.photo, beforeImport: beforeImport)
            guard selected != false, own != false else {
                note(&plan, path: work.photo.path, stage: name, .leftOut, "by select")
                continue
            }
            let upToDate = try stage.plan(&work, context: context) && !force
            let unsure = selected == nil || own == nil
            if unsure, !upToDate { plan.counts[name, default: Counts()].toDoIfHeaderMatches += 1 }
            note(&plan, path: work.photo.path, stage: name, upToDate ? .upToDate : .toDo,
                 unsure ? "(if its header matches select)" : nil)
        }
        return work
    }

    package func note(_ plan: inout Plan, path: String, stage: StageName, _ verdict: Verdict, _ detail: String? = nil) {
        switch verdict {
        case .toDo: plan.counts[stage, default: Counts()].toDo += 1
        case .upToDate: plan.counts[stage, default: Counts()].upToDate += 1
        case .leftOut: plan.counts[stage, default: Counts()].leftOut += 1
        }
        if keepsEntries { plan.entries.append((path, stage, detail.map { "\(verdict.rawValue) \($0)" } ?? verdict.rawValue)) }
    }
}

/// Hands the planner's catalogue to the stages' `plan` methods.
/// @unchecked: the planner is single-threaded; stages call the context's catalogue closure synchronously on the
/// planner's own thread, so the connection is never used from two threads.
private final class PlanningReader: @unchecked Sendable {
    let catalogue: CatalogueReader?
    init(_ catalogue: CatalogueReader?) { self.catalogue = catalogue }
}
