/// What `album prune` may forget, as its flags say (docs/catalogue.md "Pruning").
public struct PruneOptions: Sendable, Equatable {
    /// Keep missing photos, marking them `missing_kept`, instead of forgetting them (`--keep-missing`).
    public var keepMissing = false
    /// Forget missing photos even where their folder is itself gone or empty (`--forget-unreachable`).
    public var forgetUnreachable = false
    /// How many superseded versions of each photo to keep, newest first (`--keep-versions N`).
    public var keepVersions = 0
    /// Keep the skipped step rows of each photo's last `history` runs only (`--history KEEP`); nil keeps every row.
    /// Done and failed rows are always kept.
    public var history: Int? = nil

    public init() {}
}
