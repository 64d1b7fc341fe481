import Dispatch
import Core
import Catalogue
import Media
import Stages

extension Scheduler {
    /// `work` with the paths its exports are made for as its chain begins (`CatalogueSnapshot.exportPaths(of:)`).
    package func withExportPaths(_ work: PhotoWork) throws -> PhotoWork {
        try snapshot.withLock { $0 }?.withExportPaths(work) ?? work
    }

    /// The exports of a path phase 1 found with a photo's bytes (docs/catalogue.md, "Aliases"), made once the
    /// photo's chain is done: the stages before each export give what the chain made (its look, its thumbnail,
    /// through their `plan`, recording nothing), and each export stage that selects the photo runs for the alias's
    /// path alone and records its step. The catalogue is asked, not the snapshot: the chain's files are this run's.
    /// A stage the chain did not complete (it failed, and said so) ends the alias's exports without a step.
    /// - Returns: whether an export failed.
    func processAlias(_ alias: PhotoAlias) -> Bool {
        var context = self.context
        context.knownPhoto = nil
        context.recordedRenditions = nil
        context.knownAlias = nil
        guard let photo = try? context.read({ try $0.photo(id: alias.photo) }),
              var work = try? PhotoWork(photo: photo, recipe: Recipe(canonicalJSON: photo.filterRecipe)) else { return false }
        work.exportPaths = [alias.path]
        guard job.select?.matches(work.photo) ?? true else { return false }
        // A damaged photo not retried has no look to export under another name either (`PhotoRecord.heldBack`).
        guard photo.heldBack(foundByImport: true, retryDamaged: options.retryDamaged) == nil else { return false }
        for (stage, prepared) in zip(job.stages, preparedStages) {
            if let select = stage.select, !select.matches(work.photo) { continue }
            var stageContext = context
            stageContext.prepared = prepared
            guard stage.writesEachPath else {
                guard (try? stage.plan(&work, context: stageContext)) == true else { return false }
                continue
            }
            let clock = DispatchTime.now()
            let result: StepResult
            do {
                result = try stage.run(&work, context: stageContext)
            } catch {
                result = .failed(ErrorReason.of(error))
            }
            record(prepared.stage, path: alias.path, photo: photo.id, parameters: prepared.text, result: result, since: clock)
            if result.status == .failed { return true }
        }
        return false
    }
}
