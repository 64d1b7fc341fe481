import Foundation
import Core
import Catalogue

/// What a run report shows, gathered from the catalogue: the run, its counts, the photos it changed or failed, and
/// its failures.
public struct RunReport: Sendable {
    /// One photo of the run, in the grid.
    public struct Photo: Sendable {
        public var record: PhotoRecord
        /// Whether a filter gave it a look other than the original: the grid shows before and after.
        public var filtered: Bool
        /// The run's time on this photo, all stages.
        public var milliseconds: Double
        /// Its renditions whose look is known, for its previews (gathered for the photos the grid shows).
        public var renditions: [RenditionLook] = []
    }

    public var run: RunRecord
    /// Steps per stage and status (`Catalogue.stepCounts`): the run's recorded counts, or for a run that never
    /// ended, its rows' done and failed.
    public var counts: [StageName: [StepRecord.Status: Int]]
    /// Whether `counts` holds the skipped steps: false for a run that never ended (they are counted only at its end).
    public var skippedCounted: Bool
    /// Time spent per stage, summed over the run's step rows (done and failed: a skipped step is no row, and
    /// takes next to nothing).
    public var stageSeconds: [StageName: Double]
    /// Every photo the run changed or failed (its step rows), in the order the run reached them: a photo the
    /// run found up to date is no row, and not in the grid.
    public var photos: [Photo]
    /// Every failed step: path, stage, reason.
    public var failures: [StepRecord]
    /// How many photos the grid shows at most; failures are always listed in full.
    public var gridLimit: Int
    /// The states the run met and did not take through its stages (`RunRecord.states`).
    public var states: [PhotoState: Int] = [:]
    /// The catalogue's current photos whose pixels a run could not decode, with the reason (`PhotoRecord.damage`):
    /// those this run failed, and those it did not retry.
    public var damaged: [PhotoRecord] = []

    /// The run's wall time in seconds, when it has finished.
    public var seconds: Double? {
        guard let finished = run.finished, let start = Timestamp.date(run.started), let end = Timestamp.date(finished) else { return nil }
        return end.timeIntervalSince(start)
    }

    /// The exit status the run ended with, from its status and counts.
    public var exitCode: Int {
        switch run.status {
        case "ok": 0
        case "interrupted": 130
        case "running": -1
        default: 1
        }
    }

    /// The run a report shows by default: the newest run of a job (`album run`, `album import`), which records the
    /// stages it applies; a distributed run by its parent, never one of its chunk attempts (whose steps it holds).
    /// A write of another command (`caption`, `relocate`) applies no stage and is no job's run; it is shown only
    /// when the catalogue has nothing else, or with `--run`.
    static func latestJobRun(of runs: [RunRecord]) -> RunRecord? {
        runs.first { $0.parent == nil && $0.stages != nil } ?? runs.first { $0.parent == nil }
    }

    /// The slowest photos, slowest first.
    public func slowest(_ n: Int) -> [Photo] {
        Array(photos.sorted { $0.milliseconds > $1.milliseconds }.prefix(n))
    }

    /// Gathers the report of run `id` (nil: the latest run of a job; a distributed run's with its chunks' steps).
    public static func load(from catalogue: CatalogueReader, run id: Int64?, gridLimit: Int = 500) throws -> RunReport {
        let runs = try catalogue.runs()
        guard let run = id.map({ id in runs.first { $0.id == id } }) ?? latestJobRun(of: runs) else {
            throw CatalogueError(id.map { "catalogue \(catalogue.folder) has no run \($0); 'album runs' lists them" }
                                 ?? "catalogue \(catalogue.folder) has no runs yet")
        }
        let steps = try catalogue.steps(run: run.id)
        let counts = try catalogue.stepCounts(run: run.id)
        var stageSeconds: [StageName: Double] = [:]
        var order: [String] = []
        var perPhoto: [String: (ms: Double, filtered: Bool)] = [:]
        for step in steps {
            stageSeconds[step.stage, default: 0] += step.milliseconds / 1000
            guard let id = step.photo else { continue }
            if perPhoto[id] == nil { order.append(id) }
            var entry = perPhoto[id] ?? (0, false)
            entry.ms += step.milliseconds
            if step.stage == .filter, step.status != .failed, !step.parameters.contains(#""preset":"none""#) { entry.filtered = true }
            perPhoto[id] = entry
        }
        let filterLooks = RenditionLook.filterLooks(of: runs)
        var photos: [Photo] = []
        for id in order {
            guard let record = try catalogue.photo(id: id), let entry = perPhoto[id] else { continue }
            let renditions = photos.count < gridLimit ? try RenditionLook.of(photo: record, in: catalogue, filterLooks: filterLooks) : []
            photos.append(Photo(record: record, filtered: entry.filtered && record.filter != "none", milliseconds: entry.ms,
                                renditions: renditions))
        }
        return RunReport(run: run, counts: counts, skippedCounted: run.counts != nil, stageSeconds: stageSeconds, photos: photos,
                         failures: steps.filter { $0.status == .failed }, gridLimit: gridLimit, states: run.states,
                         damaged: try catalogue.currentDamagedPhotos())
    }
}
