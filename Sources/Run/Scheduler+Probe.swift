import Dispatch
import Core
import Catalogue
import Stages
import JobFile

extension Scheduler {
    /// Whether this run probes the files import finds first (`probe`): each of its stages can say it is up to date
    /// from a probe (`PhotoStage.probesUpToDate`), and nothing selects from facts a probe does not read (`select:`)
    /// nor asks for every step to be made again (`--force`).
    static func probes(_ job: JobFile.Job, options: RunOptions) -> Bool {
        job.importStage != nil && !options.force && job.select == nil
            && job.stages.allSatisfy { type(of: $0).probesUpToDate && $0.select == nil }
    }

    /// Takes a file whose photo has nothing to do, from its probe (`CatalogueReader.probedPhotos`, `probedRenditions`)
    /// instead of its whole row: import finds it unchanged and every stage up to date, and each step is recorded as
    /// its chain records it (`process`, whose decisions these are: `ImportStage.unchanged`, `upToDate(probing:)`).
    /// - Returns: false, having recorded nothing, when any step may do more than skip (a changed file, a damaged
    ///   photo, a missing or outdated rendition): `process` then takes the file through its chain.
    /// - Parameter probing: the worker's `probingContext`, each stage's prepared parameters set in it in turn.
    /// - Parameter lookup: the worker's slot, holding `decodeNeed`'s lookup of this file when it made one.
    func probe(_ path: String, sidecar: String?, identity: FileIdentity, known lookup: KnownPhoto, context: StageContext,
               probing: inout StageContext) -> Bool {
        let clock = DispatchTime.now()
        guard let snapshot = snapshot.withLock({ $0 }),
              let known = lookup.take(at: path) ?? (try? snapshot.probedPhoto(atPath: path)),
              known.damage == nil,  // held back, or retried with `--retry-damaged`: the chain's to say
              let (imported, importStep) = job.importStage?.unchanged(path, sidecar: sidecar, identity: identity, known: known, context: context)
        else { return false }
        var work = imported
        var steps: [(stage: StageName, parameters: String, result: StepResult)] = []
        for (stage, prepared) in zip(job.stages, preparedStages) {
            probing.prepared = prepared
            guard let skipped = try? stage.upToDate(probing: &work, context: probing) else { return false }
            steps.append((prepared.stage, skipped.parameters ?? prepared.text, skipped))
        }
        record(.import, path: path, photo: known.id, parameters: preparedImport!.text, result: importStep, since: clock)
        // Two files with the same bytes are one photo: only the first goes on (as in `process`).
        let first = state.withLock { state in
            let first = PhotoRecord.settle(known, in: &state.settled)
            if first { state.settledCurrent += 1 }  // `known` is current in the snapshot (`probedPhoto`)
            return first
        }
        guard first else { return true }
        for step in steps {
            record(step.stage, path: known.path, photo: known.id, parameters: step.parameters, result: step.result, since: clock)
        }
        return true
    }
}

extension Scheduler {
    /// `context` as the probe's stages see it: a photo's renditions are its probed ones
    /// (`CatalogueSnapshot.probedRenditions`). Nil without a snapshot (a run that probes has one).
    func probingContext(_ context: StageContext) -> StageContext? {
        guard let snapshot = snapshot.withLock({ $0 }) else { return nil }
        var probing = context
        probing.recordedRenditions = { photo in
            guard let renditions = try snapshot.probedRenditions(ofPhoto: photo) else { throw ProbeDeclined() }
            return renditions
        }
        return probing
    }
}

/// A probe found a row it does not read as the whole record's read would: the photo goes through its chain.
private struct ProbeDeclined: Error {}
