import Foundation

/// What `album run` would do, worked out without reading pixels or writing anything: `album plan` and
/// `album run --dry-run`.
public struct Planner {
    /// Per stage: how many photos each verdict applies to.
    public struct Counts: Sendable, Equatable {
        public var toDo = 0
        public var upToDate = 0
        public var leftOut = 0
    }

    /// The plan of one job.
    public struct Plan: Sendable {
        public var job: Job
        public var counts: [StageName: Counts] = [:]
        /// One line per photo and stage, for `--verbose`: (path, stage, verdict).
        public var entries: [(path: String, stage: StageName, verdict: String)] = []
    }

    let job: Job
    let force: Bool

    public init(job: Job, force: Bool = false) {
        self.job = job
        self.force = force
    }

    /// Plans the job against its catalogue (read only; a missing catalogue means everything is to do).
    public func plan() throws -> Plan {
        let catalogue = FileManager.default.fileExists(atPath: job.catalogue + "/" + Catalogue.databaseName)
            ? try Catalogue(folder: job.catalogue, readOnly: true) : nil
        defer { catalogue?.close() }
        let job = try self.job.resolvingSelections(in: catalogue)
        let reader = PlanningReader(catalogue)
        let context = StageContext(catalogueFolder: job.catalogue, run: 0, software: Software.current,
                                   catalogue: { body in if let catalogue = reader.catalogue { try body(catalogue) } }, force: force)
        var plan = Plan(job: job)
        var seen = Set<String>()
        for path in job.importStage?.scan().files ?? [] {
            var info = stat()
            let known = try catalogue?.latestPhoto(path: path)
            let unchanged = known.map { known in
                lstat(path, &info) == 0 && known.bytes == Int(info.st_size) && known.inode == Int(info.st_ino)
                    && known.mtimeNanoseconds == Int(info.st_mtim.tv_sec) * 1_000_000_000 + Int(info.st_mtim.tv_nsec)
            } ?? false
            note(&plan, path: path, stage: .import, verdict: unchanged && !force ? "up to date" : "to do")
            if let known, unchanged {
                seen.insert(known.id)
                try follow(PhotoWork(photo: known, recipe: try Recipe(canonicalJSON: known.filterRecipe)), of: job, in: &plan, context: context)
            } else {
                for stage in job.stages { note(&plan, path: path, stage: type(of: stage).stage, verdict: "to do") }
            }
        }
        if !job.stages.isEmpty, let catalogue {
            for photo in try catalogue.allPhotos() where !seen.contains(photo.id) {
                try follow(PhotoWork(photo: photo, recipe: try Recipe(canonicalJSON: photo.filterRecipe)), of: job, in: &plan, context: context)
            }
        }
        return plan
    }

    /// Plans the stages after import of `job` (its selections resolved) for one photo already in the catalogue.
    private func follow(_ work: PhotoWork, of job: Job, in plan: inout Plan, context: StageContext) throws {
        var work = work
        let selected = job.select?.matches(work.photo) ?? true
        for stage in job.stages {
            let name = type(of: stage).stage
            guard selected, stage.select?.matches(work.photo) ?? true else {
                note(&plan, path: work.photo.path, stage: name, verdict: "left out by select")
                continue
            }
            let upToDate = try stage.plan(&work, context: context) && !force
            note(&plan, path: work.photo.path, stage: name, verdict: upToDate ? "up to date" : "to do")
        }
    }

    private func note(_ plan: inout Plan, path: String, stage: StageName, verdict: String) {
        switch verdict {
        case "to do": plan.counts[stage, default: Counts()].toDo += 1
        case "up to date": plan.counts[stage, default: Counts()].upToDate += 1
        default: plan.counts[stage, default: Counts()].leftOut += 1
        }
        plan.entries.append((path, stage, verdict))
    }
}

/// Hands the planner's catalogue to the stages' `plan` methods.
/// @unchecked: the planner is single-threaded; stages call the context's catalogue closure synchronously on the
/// planner's own thread, so the connection is never used from two threads.
private final class PlanningReader: @unchecked Sendable {
    let catalogue: Catalogue?
    init(_ catalogue: Catalogue?) { self.catalogue = catalogue }
}
