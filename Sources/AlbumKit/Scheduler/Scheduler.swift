import Dispatch
import Foundation
import Synchronization
import Vips

/// Streams every photo of a job through its stage chain, a bounded number at a time. The one home of album's
/// concurrency: worker threads, the catalogue's serial owner, and the shared state between them.
///
/// libvips' maintainers advise parallelism across images with few threads per image for batch work, so each
/// worker runs one photo's whole chain, and libvips' own pool is set to one thread per pipeline (`Vips.Settings`).
public final class Scheduler: Sendable {
    /// A unit of work: a file to import, or a catalogue photo for the stages after import.
    enum Item: Sendable { case file(String), photo(PhotoRecord) }

    let job: Job
    let workers: Int
    let force: Bool
    let owner: CatalogueOwner
    let run: Int64
    let software: Software
    private let state: Mutex<State>
    /// Called after each step, from worker threads (the reporter serialises its own output).
    let onStep: @Sendable (StepRecord) -> Void

    struct State {
        var summary: RunSummary
        var claimed: Set<String> = []
    }

    init(job: Job, options: RunOptions, catalogue: Catalogue, run: Int64, software: Software,
         onStep: @escaping @Sendable (StepRecord) -> Void) {
        self.job = job
        self.workers = max(1, options.workers ?? job.workers ?? ProcessInfo.processInfo.activeProcessorCount)
        self.force = options.force
        self.owner = CatalogueOwner(catalogue)
        self.run = run
        self.software = software
        self.onStep = onStep
        self.state = Mutex(State(summary: RunSummary(run: run)))
    }

    /// Runs the job to the end and returns what happened. Catalogue write failures are rethrown after the
    /// workers stop.
    func runAll() throws -> RunSummary {
        let started = DispatchTime.now()
        // Phase 1: every file found by import, each through the whole chain.
        if let importStage = job.importStage {
            perform(importStage.scan().map(Item.file))
        }
        // Phase 2: the catalogue's other photos, for the stages after import.
        if !job.stages.isEmpty {
            let claimed = state.withLock { $0.claimed }
            let photos = try owner.sync { try $0.allPhotos() }.filter { !claimed.contains($0.id) }
            perform(photos.map(Item.photo))
        }
        if let error = owner.finish() { throw error }
        return state.withLock { state in
            state.summary.seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
            state.summary.status = state.summary.failedCount > 0 ? "failed" : "ok"
            return state.summary
        }
    }

    /// Runs `items` on `workers` threads, each pulling the next item when it finishes one.
    private func perform(_ items: [Item]) {
        let next = Mutex(0)
        let group = DispatchGroup()
        let queue = DispatchQueue(label: "album.workers", attributes: .concurrent)
        for _ in 0..<min(workers, max(items.count, 1)) {
            queue.async(group: group) { [self] in
                while true {
                    let index = next.withLock { index in
                        defer { index += 1 }
                        return index
                    }
                    guard index < items.count, owner.firstError == nil else { return }
                    process(items[index])
                }
            }
        }
        group.wait()
    }

    private var context: StageContext {
        let owner = self.owner
        return StageContext(catalogueFolder: job.catalogue, run: run, software: software,
                            catalogue: { body in try owner.sync(body) }, force: force)
    }

    /// One photo's whole chain.
    private func process(_ item: Item) {
        let context = self.context
        var work: PhotoWork
        switch item {
        case .file(let path):
            let clock = DispatchTime.now()
            let (imported, result) = job.importStage!.importFile(path, context: context)
            record(.import, path: path, photo: imported?.photo.id, parameters: job.importStage!.parameters,
                   result: result, since: clock)
            guard let imported else { return }
            // Two files with the same bytes are one photo: only the first goes on through the chain.
            let first = state.withLock { $0.claimed.insert(imported.photo.id).inserted }
            guard first else { return }
            work = imported
        case .photo(let photo):
            do {
                work = PhotoWork(photo: photo, recipe: try Recipe(canonicalJSON: photo.filterRecipe))
            } catch {
                record(job.stages.first.map { type(of: $0).stage } ?? .filter, path: photo.path, photo: photo.id,
                       parameters: .null, result: .failed("\(error)"), since: .now())
                return
            }
        }
        guard job.select?.matches(work.photo) ?? true else { return }
        for stage in job.stages {
            if let select = stage.select, !select.matches(work.photo) { continue }
            let clock = DispatchTime.now()
            let result: StepResult
            do {
                result = try stage.run(&work, context: context)
            } catch {
                result = .failed(Scheduler.reason(error))
            }
            record(type(of: stage).stage, path: work.photo.path, photo: work.photo.id, parameters: stage.parameters,
                   result: result, since: clock)
            if result.status == .failed { break }  // later stages would work from a look that was not made
        }
    }

    private func record(_ stage: StageName, path: String, photo: String?, parameters: JSONValue, result: StepResult,
                        since clock: DispatchTime) {
        let ms = Double(DispatchTime.now().uptimeNanoseconds - clock.uptimeNanoseconds) / 1e6
        let step = StepRecord(run: run, photo: photo, path: path, stage: stage, parameters: parameters.text,
                              inputHash: result.inputHash, outputHash: result.outputHash, milliseconds: ms,
                              status: result.status, error: result.message)
        owner.async { try $0.record(step) }
        state.withLock { state in
            state.summary.counts[stage, default: [:]][result.status, default: 0] += 1
            if result.status == .failed {
                state.summary.failures.append(.init(path: path, stage: stage, reason: result.message ?? "unknown"))
            }
        }
        onStep(step)
    }

    /// A sentence for a step's failure, from any error a stage throws. The path is reported beside it.
    static func reason(_ error: Error) -> String {
        switch error {
        case let error as VipsError:
            "libvips \(error.operation) failed: \(error.reason)"
        case let error as StageError: error.message
        case let error as AtomicFileError: error.description
        case let error as FileBytesError: error.description
        default: "\(error)"
        }
    }
}
