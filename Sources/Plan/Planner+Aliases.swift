import System
import Core
import Catalogue
import Media
import Stages
import JobFile
import Run

extension Planner {
    /// Whether a file still to import is worth hashing to plan it as the run will record it: its size is that of a
    /// current photo or of another file still to import, so it may be a copy (`ImportMatch`). Any other file holds
    /// bytes the catalogue cannot know, and is planned as a new photo unread.
    static func isCandidate(_ identity: FileIdentity, _ progress: PlanProgress) -> Bool {
        progress.knownSizes.contains(identity.bytes) || (progress.sizesToImport[identity.bytes] ?? 0) > 1
    }

    /// The photo the catalogue (or this plan) already has with `hash`, as the run will find it: current, and where
    /// this plan moved it.
    package static func holder(of hash: String, snapshot: CatalogueSnapshot, _ progress: PlanProgress) throws -> PhotoRecord? {
        guard let found = try snapshot.photo(hash: hash) ?? progress.newPhotosByHash[hash] else { return nil }
        return progress.moved[found.id] ?? found
    }

    /// Plans a file whose bytes `holder` already has, as `ImportStage.importFile` records it (`ImportMatch.of`):
    /// the same file touched, a move, a known name (import up to date, the photo goes on), or a new name (import to
    /// do; its export is planned after every chain, `planAliasExports`).
    func planKnownBytes(at path: String, identity: FileIdentity, holder: PhotoRecord, job: Job, snapshot: CatalogueSnapshot,
                        progress: inout PlanProgress, in plan: inout Plan, context: StageContext) throws {
        let aliases = try snapshot.aliases(ofPhoto: holder.id) + progress.aliasesFound.filter { $0.photo.id == holder.id }.map(\.alias)
        var photo = holder
        let match = ImportMatch.of(path: path, photo: holder, aliases: aliases)
        switch match {
        case .sameFile, .knownAlias:
            note(&plan, path: path, stage: .import, force ? .toDo : .upToDate)
        case .moved:
            note(&plan, path: path, stage: .import, force ? .toDo : .upToDate)
            photo.path = path
            progress.moved[photo.id] = photo
        case .newAlias:
            note(&plan, path: path, stage: .import, .toDo)
            progress.aliasesFound.append((PhotoAlias(photo: holder.id, path: path, bytes: identity.bytes,
                                                     mtimeNanoseconds: identity.mtimeNanoseconds, inode: identity.inode,
                                                     added: Timestamp.now()), holder))
        }
        guard PhotoRecord.settle(photo, in: &progress.settled) else { return }
        let beforeImport = try snapshot.photo(id: photo.id) == nil
        try followKeeping(snapshot.withExportPaths(PhotoWork(photo: photo, recipe: try Recipe(canonicalJSON: photo.filterRecipe))),
                          beforeImport: beforeImport, foundByImport: true, of: job, progress: &progress, in: &plan, context: context)
    }

    /// Plans a photo's chain (`follow`), keeping the work it ends with when an alias may copy the photo.
    func followKeeping(_ work: PhotoWork, beforeImport: Bool, foundByImport: Bool, of job: Job, progress: inout PlanProgress,
                       in plan: inout Plan, context: StageContext) throws {
        let final = try follow(work, beforeImport: beforeImport, foundByImport: foundByImport, of: job, in: &plan, context: context)
        if progress.sizesToImport[work.photo.bytes] != nil { progress.finalWork[work.photo.id] = final }
    }

    /// Plans the exports of the names found for known bytes, as the scheduler makes them after every chain: each
    /// export stage for the alias's path alone, from the work its photo's chain ends with (its look, its
    /// thumbnail), selected as its photo is.
    func planAliasExports(of job: Job, _ progress: PlanProgress, in plan: inout Plan, context: StageContext) throws {
        for (alias, photo) in progress.aliasesFound {
            var work = try progress.finalWork[photo.id] ?? PhotoWork(photo: photo, recipe: Recipe(canonicalJSON: photo.filterRecipe))
            work.exportPaths = [alias.path]
            let beforeImport = progress.newPhotosByHash[photo.hash]?.id == photo.id
            let selected = Planner.matches(job.select, work.photo, beforeImport: beforeImport)
            guard selected != false else { continue }
            guard photo.heldBack(foundByImport: true, retryDamaged: retryDamaged) == nil else { continue }
            for stage in job.stages where stage.writesEachPath {
                let own = Planner.matches(stage.select, work.photo, beforeImport: beforeImport)
                guard own != false else { continue }
                let upToDate = try stage.plan(&work, context: context) && !force
                note(&plan, path: alias.path, stage: .export, upToDate ? .upToDate : .toDo,
                     selected == nil || own == nil ? "(if its header matches select)" : nil)
            }
        }
    }
}
