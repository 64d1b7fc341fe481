/// How deep `album verify` looks (docs/commands.md, "verify").
public enum VerifyDepth: Sendable, Equatable {
    /// SQLite's `quick_check`, and every recorded file's stat against the catalogue: no file is read.
    case quick
    /// SQLite's `integrity_check`, and every file of the walk's photos re-hashed.
    case deep
}

/// What one `album verify` found (`Verifier.check`).
public struct VerifyOutcome: Sendable {
    /// The problems (exit 1), in the catalogue's order: the database's, then renditions by row, then photos.
    public var problems: [CatalogueProblem] = []
    /// The states met that are not problems.
    public var states = VerifyStates()
    /// The quick check's originals whose stat is not the recorded one (counted as `changed` in `states`): not
    /// problems, named so that the deep check or the next run can look at them.
    public var changed: [CatalogueProblem] = []
    /// How many photos had their files checked.
    public var checkedPhotos = 0
    /// Whether a deep check reached the end of its walk (false when `--sample` stopped it first).
    public var finished = true
    /// The walk checked, `after` the key of the last photo checked.
    public var walk: VerifyWalk

    public init(walk: VerifyWalk) {
        self.walk = walk
    }
}
