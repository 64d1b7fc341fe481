import Core

/// One stage applied to one photo in one run: the provenance row.
public struct StepRecord: Sendable, Equatable {
    public enum Status: String, Sendable, CaseIterable { case done, skipped, failed }

    public var run: Int64
    /// The photo's id; nil when import failed before the photo had one.
    public var photo: String?
    /// The original's path.
    public var path: String
    public var stage: StageName
    /// The stage's canonical parameters, JSON.
    public var parameters: String
    public var inputHash: String?
    public var outputHash: String?
    public var milliseconds: Double
    public var status: Status
    /// Why the step failed or was skipped, as a sentence.
    public var error: String?
    /// The photo's state the step found (`damaged`: it failed because the pixels could not be decoded), for the
    /// step event; not a column: the photo's `damage` is what the catalogue keeps.
    public var state: PhotoState? = nil

    public init(run: Int64, photo: String?, path: String, stage: StageName, parameters: String, inputHash: String?,
                outputHash: String?, milliseconds: Double, status: Status, error: String?, state: PhotoState? = nil) {
        self.run = run
        self.photo = photo
        self.path = path
        self.stage = stage
        self.parameters = parameters
        self.inputHash = inputHash
        self.outputHash = outputHash
        self.milliseconds = milliseconds
        self.status = status
        self.error = error
        self.state = state
    }
}
