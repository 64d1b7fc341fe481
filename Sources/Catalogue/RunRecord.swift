/// One `album run` (or `album import`): what ran, with which software, and how it ended.
public struct RunRecord: Sendable, Equatable {
    public var id: Int64
    public var job: String
    public var jobPath: String?
    /// SHA-256 of the job file's bytes.
    public var jobHash: String?
    public var started: String
    public var finished: String?
    /// running, ok, failed or interrupted; `distributed` for the parent row of a distributed run while it is open.
    public var status: String
    /// The per-stage counts as JSON, like the `run-finished` event's `stages`.
    public var counts: String?
    public var albumVersion: String
    public var vipsVersion: String
    public var sqliteVersion: String
    public var host: String
    /// Each stage the run applied, with its parameters' hash (and a filter stage's look), as JSON written when the run
    /// starts (`AppliedStage.json`: `[{"stage":"thumbnail","params_hash":"…"},…]`); nil for runs recorded before
    /// schema version 5 and for `caption` and `relocate` runs. `album prune` keeps what these would produce.
    public var stages: String? = nil
    /// The distributed run this row is a chunk attempt of (docs/distributed.md), and the chunk's index; nil for
    /// every other run.
    public var parent: Int64? = nil
    public var chunk: Int? = nil
}
