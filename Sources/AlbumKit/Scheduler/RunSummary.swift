import Foundation

/// What a run did: counts per stage and status, the failures, and how it ended.
public struct RunSummary: Sendable {
    public struct Failure: Sendable {
        public var path: String
        public var stage: StageName
        public var reason: String
    }

    public var run: Int64
    public var counts: [StageName: [StepRecord.Status: Int]] = [:]
    public var failures: [Failure] = []
    /// Time spent in each stage, summed over photos (workers overlap, so this exceeds wall time).
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
        .object(StageName.jobStages.map { stage in
            (stage.rawValue, .object(StepRecord.Status.allCases.map { ($0.rawValue, .int(counts[stage]?[$0] ?? 0)) }))
        })
    }
}
