import Foundation
import Core
import Stages
import Catalogue

/// What a run did: counts per stage and status, the failures, and how it ended.
public struct RunSummary: Sendable {
    public struct Failure: Sendable {
        public var path: String
        public var stage: StageName
        public var reason: String
    }

    /// The catalogue's id of the run (`runs.id`).
    public var run: Int64
    /// Which run of its job this is, counting the catalogue's runs of a job of that name (`Catalogue.jobRunNumber`):
    /// "run 3 of job 'demo'". Nil for one chunk of a distributed run, which is part of its parent's.
    public var jobRun: Int? = nil
    /// The photos processed at once: how many workers `stageSeconds` is summed over.
    public var workers: Int = 1
    public var counts: [StageName: [StepRecord.Status: Int]] = [:]
    public var failures: [Failure] = []
    /// Each stage's busy time: the durations of its steps that did something (done or failed; a skipped step only
    /// checked), summed over photos and so over the workers, which overlap (with 2 workers busy all along, a
    /// stage's busy time is twice the wall time it took).
    public var stageSeconds: [StageName: Double] = [:]
    public var seconds: Double = 0
    /// Why the run stopped early, if it did.
    public var stop: StopReason? = nil
    /// Whether photos still in flight were abandoned after the grace period.
    public var abandoned: Bool = false
    /// What import's scan passed over: album's own files, and files that match no include pattern.
    public var passedOver = PassedOver()
    /// The photos the run met and did not take through its stages, by state (`PhotoRecord.heldBack`): damaged
    /// ones not retried, missing ones; and the superseded versions (the catalogue's, and those this run's imports
    /// replaced), which never join a run.
    public var states: [PhotoState: Int] = [:]
    /// The decodes that several outputs of a photo shared (`SharedDecode`): the photos decoded once for them, and the
    /// outputs derived from those decodes.
    public var sharedDecodes = SharedDecodeCounts()
    /// ok, failed or interrupted.
    public var status: String = "ok"

    /// A stage's own throughput: its done steps per second of its busy time, the pace of one worker in that stage;
    /// nil for a stage that did none (every photo skipped or failed, or none: a text file that fails in 40 µs is no
    /// pace of 23 000 photos a second).
    public func photosPerBusySecond(_ stage: StageName) -> Double? {
        let worked = counts[stage]?[.done] ?? 0
        guard worked > 0, let busy = stageSeconds[stage], busy > 0 else { return nil }
        return Double(worked) / busy
    }

    public var failedCount: Int { counts.values.reduce(0) { $0 + ($1[.failed] ?? 0) } }

    /// The states' counts as JSON, every one of `RunSummary.countedStates` present: `{"damaged":n,"missing":n,"superseded":n}`.
    public var statesJSON: JSONValue {
        .object(RunSummary.countedStates.map { ($0.rawValue, .int(states[$0] ?? 0)) })
    }

    /// What the run row keeps (`runs.counts`): the per-stage counts, and the states the run met under `"states"`
    /// (`album runs` shows them).
    public var recordedCounts: JSONValue {
        guard case .object(let stages) = countsJSON else { return countsJSON }
        return .object(stages + [("states", statesJSON)])
    }

    /// The states a run counts: those that keep a photo out of its stages.
    public static let countedStates: [PhotoState] = [.damaged, .missing, .superseded]

    /// The per-stage counts as JSON: `{"import":{"done":n,"skipped":n,"failed":n},…}`.
    public var countsJSON: JSONValue {
        .object(StageRegistry.names.map { stage in
            (stage.rawValue, .object(StepRecord.Status.allCases.map { ($0.rawValue, .int(counts[stage]?[$0] ?? 0)) }))
        })
    }
}
