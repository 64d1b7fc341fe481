import Dispatch
import Foundation
import System
import Vips
import Core
import Catalogue
import Media
import Stages

extension Scheduler {
    /// One photo's whole chain: import (for a file), then every stage that selects it, stopping at a failure.
    /// - Parameter context: the worker's context (`perform`), each stage's prepared parameters set in place (a copy
    ///   per stage retained and released every closure it holds).
    /// - Parameter probing: the worker's context for probes (`probingContext`), when the run probes.
    /// - Parameter known: the worker's last probe lookup (`decodeNeed`'s), for the probe.
    package func process(_ item: Item, context: inout StageContext, probing: inout StageContext?, known: KnownPhoto) {
        if context.prepared != nil { context.prepared = nil }
        var work: PhotoWork
        var failed = false
        defer { photoFinished(failed: failed) }
        switch item {
        case .file(let path, let sidecar, var identity):
            // A photo with nothing to do, found so from a few columns (most of a rerun's photos). A file without the
            // scan's stat (a chunk's, from its manifest) is stat-ed here as import would, and import is handed it.
            if probesFiles {
                if identity == nil, case .file(let found) = job.importStage!.entry(atPath: path) { identity = found }
                if let identity, probing != nil, probe(path, sidecar: sidecar, identity: identity, known: known, context: context, probing: &probing!) {
                    return
                }
            }
            let clock = DispatchTime.now()
            let (imported, result) = job.importStage!.importFile(path, sidecar: sidecar, identity: identity, context: context)
            record(.import, path: path, photo: imported?.photo.id, parameters: preparedImport!.text,
                   result: result, since: clock)
            guard let imported else { failed = result.status == .failed; return }
            // An earlier version's bytes found under another name (a copy made before the original was edited):
            // recorded as its name, and no more. A superseded photo never joins a run, nor gets exports. (Its bytes
            // back at its own path, an edit undone, still go on: docs/catalogue.md, "Aliases", says what is left.)
            do {
                if imported.photo.path != path, snapshot.withLock({ $0 })?.isSuperseded(id: imported.photo.id) == true { return }
                work = try withExportPaths(imported)
            } catch {
                record(job.stages.first.map { type(of: $0).stage } ?? .filter, path: path, photo: imported.photo.id,
                       parameters: JSONValue.null.text, result: .failed("\(error)"), since: .now())
                failed = true
                return
            }
            // Two files with the same bytes are one photo: only the first goes on through the chain. The version
            // this import replaces is settled too: a superseded photo never joins the run (phase 2).
            // A path found with a known photo's bytes gets its export after every chain (`processAlias`).
            let first = state.withLock { state in
                if let alias = imported.newAlias { state.aliasesFound.append(alias) }
                if result.status == .done, !imported.factsOnly, imported.photo.replaces != nil { state.summary.states[.superseded, default: 0] += 1 }
                return PhotoRecord.settle(imported.photo, in: &state.settled)
            }
            guard first else { return }
        case .alias(let alias):
            failed = processAlias(alias)
            return
        case .unreadableFolder(let folder):
            record(.import, path: folder.path, photo: nil, parameters: preparedImport!.text,
                   result: .failed("cannot read this folder: \(folder.reason); nothing in it was imported"), since: .now())
            failed = true
            return
        case .photo(let photo):
            do {
                work = try withExportPaths(PhotoWork(photo: photo, recipe: try Recipe(canonicalJSON: photo.filterRecipe)))
            } catch {
                let stage = job.stages.first.map { type(of: $0).stage } ?? .filter
                record(stage, path: photo.path, photo: photo.id, parameters: JSONValue.null.text,
                       result: .failed("\(error)"), since: .now())
                failed = true
                return
            }
        }
        guard job.select?.matches(work.photo) ?? true else { return }
        // A missing or damaged photo is counted, not sent through the stages (`PhotoRecord.heldBack`, as the plan).
        guard !job.stages.isEmpty else { return }
        var foundByImport = false
        if case .file = item { foundByImport = true }
        if let held = work.photo.heldBack(foundByImport: foundByImport, retryDamaged: options.retryDamaged) {
            state.withLock { $0.summary.states[held, default: 0] += 1 }
            return
        }
        work.shared = sharedDecode(for: work, context: context)
        for (stage, prepared) in zip(job.stages, preparedStages) {
            if let select = stage.select, !select.matches(work.photo) { continue }
            let clock = DispatchTime.now()
            context.prepared = prepared
            var result: StepResult
            do {
                result = try stage.run(&work, context: context)
            } catch let damage as DamagedImage {
                // The photo's pixels cannot be decoded: recorded on the photo, so later runs leave it alone.
                result = .failed(damage.reason)
                result.state = .damaged
                let photo = work.photo.id, reason = Scheduler.oneLine(damage.reason)
                owner.async({ try $0.setDamage(photo: photo, reason: reason) })
            } catch {
                result = .failed(ErrorReason.of(error))
            }
            record(prepared.stage, path: work.photo.path, photo: work.photo.id, parameters: result.parameters ?? prepared.text,
                   result: result, since: clock)
            if result.status == .failed {
                failed = true
                break  // later stages would work from a look that was not made
            }
        }
        if let shared = work.shared {
            // The chain is over: the shared image goes now, and what it served is counted (`decodes_shared`).
            work.shared = nil
            state.withLock { $0.summary.sharedDecodes.add(shared) }
        }
        if !failed, work.photo.damage != nil,
           let original = try? work.originalBytes(catalogueFolder: job.catalogue),
           LookRenderer.decodes(original, failOn: context.failOn) {
            // `--retry-damaged`, every stage went through, and the original's pixels decode now (asked, since an
            // up-to-date or look-only stage decodes nothing).
            let photo = work.photo.id
            owner.async({ try $0.setDamage(photo: photo, reason: nil) })
        }
    }

    private func photoFinished(failed: Bool) {
        let failures = state.withLock { state -> Int in
            state.photosDone += 1
            if failed { state.photosFailed += 1 }
            return state.photosFailed
        }
        guard failed else { return }
        if options.failFast { requestStop(.failFast) }
        if let limit = options.maxFailures, failures >= limit { requestStop(.maxFailures(limit)) }
    }

    package func record(_ stage: StageName, path: String, photo: String?, parameters: String, result: StepResult,
                        since clock: DispatchTime) {
        let ms = Double(DispatchTime.now().uptimeNanoseconds - clock.uptimeNanoseconds) / 1e6
        let step = StepRecord(run: run, photo: photo, path: path, stage: stage, parameters: parameters,
                              inputHash: result.inputHash, outputHash: result.outputHash, milliseconds: ms,
                              status: result.status, error: result.message.map(Scheduler.oneLine), state: result.state)
        state.withLock { state in
            // Busy time is the work a stage did (done and failed steps); checking that a step is up to date is not.
            // A skipped step changed nothing, so it is no row: it is counted here, the run row's counts keep it
            // when the run ends (`runs.counts`, the one record of skipped steps), and it is announced at once. A
            // no-op rerun writes nothing per photo (docs/catalogue.md, "Skipped steps").
            if result.status == .skipped {
                state.summary.counts[stage, default: [:]][.skipped, default: 0] += 1
                return
            }
            state.summary.stageSeconds[stage, default: 0] += ms / 1000
            if result.status == .failed {
                state.summary.failures.append(.init(path: path, stage: stage, reason: step.error ?? "unknown"))
            }
        }
        guard result.status != .skipped else {
            observer.step(step)
            return
        }
        // A done or failed step is announced once its row is committed, so that no event outlives a crash that
        // takes its row back; its count is the committed row's, so the run's counts, its rows and its step events
        // agree (docs/events.md).
        owner.async({ try $0.record(step) }, afterCommit: { [self] in
            state.withLock { $0.summary.counts[stage, default: [:]][result.status, default: 0] += 1 }
            observer.step(step)
        })
    }

    /// A message on one line: events are JSON Lines and summaries are tables.
    static func oneLine(_ text: String) -> String {
        // Most messages ("up to date", …) are one line already: answered without Foundation's character sets.
        let plain = text.utf8.withContiguousStorageIfAvailable { bytes in
            guard let first = bytes.first, let last = bytes.last, first > 0x20, last > 0x20 else { return false }
            return !bytes.contains { (0x0A...0x0D).contains($0) || $0 >= 0x80 }
        }
        if plain == true { return text }
        return text.trimmingCharacters(in: .whitespacesAndNewlines).components(separatedBy: .newlines)
            .filter { !$0.isEmpty }.joined(separator: "; ")
    }
}
