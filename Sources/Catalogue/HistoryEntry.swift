/// One step in a photo's history, with the run it belonged to: what `album show` lists.
public struct HistoryEntry: Sendable, Equatable {
    public var run: Int64
    /// The run's job name ("caption" for `album caption`).
    public var job: String
    /// The job file, or nil for a command's run.
    public var jobPath: String?
    /// import, filter, thumbnail, export or caption.
    public var stage: String
    /// The stage's parameters as stored: canonical JSON.
    public var parameters: String
    /// done, skipped or failed.
    public var status: String
    /// Why the step failed or was skipped.
    public var error: String?
    public var inputHash: String?
    public var outputHash: String?
    public var milliseconds: Double
    /// When the step was recorded, ISO-8601 UTC; for steps recorded before schema version 2, the run's start.
    public var time: String
}
