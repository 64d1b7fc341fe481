import Core

/// A stage that works on a photo already in the catalogue: filter, thumbnail or export.
///
/// Stages are value types: options with every default written out, validated when the job is loaded, and
/// one `run` that turns them into one libvips pipeline. Import is the exception that makes photos (`ImportStage`).
public protocol PhotoStage: Sendable {
    /// Which stage this is.
    static var stage: StageName { get }
    /// Every option with its value, defaults included: recorded as the step's parameters and hashed. A stage
    /// gets it from its `options` table (`DeclaredOptions`).
    var parameters: JSONValue { get }
    /// The stage's own selection, narrowing the job's `select:` (nil: every photo the job selects).
    var select: Selection? { get set }
    /// Runs the stage on one photo, updating `work` for the stages after it.
    func run(_ work: inout PhotoWork, context: StageContext) throws -> StepResult
    /// Says whether `run` would skip the photo as up to date, without reading pixels or writing anything, and
    /// updates `work` as `run` would (its look, its thumbnail) for the stages after it.
    func plan(_ work: inout PhotoWork, context: StageContext) throws -> Bool
}
