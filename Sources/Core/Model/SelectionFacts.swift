/// What the catalogue knows that matching the `missing` and `failed` keys needs, resolved once before matching.
///
/// `Selection.matches` stays a pure function of a photo: `Selection.resolved(in:)` fills these sets first.
/// A photo imported after they were resolved is in neither set, so it is missing everything and failed nowhere.
public struct SelectionFacts: Sendable, Equatable {
    /// Ids of photos with a recorded rendition of the `missing` kind whose file is still there.
    public var having: Set<String> = []
    /// Ids of photos with a failed step in the last job run.
    public var failed: Set<String> = []

    public init(having: Set<String> = [], failed: Set<String> = []) {
        self.having = having
        self.failed = failed
    }
}
