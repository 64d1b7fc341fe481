import Core
import Catalogue

/// What one stage did to one photo: recorded as a step, reported as an event.
public struct StepResult: Sendable {
    public var status: StepRecord.Status
    public var inputHash: String?
    public var outputHash: String?
    /// For `skipped`: why (up to date, duplicate of …). For `failed`: the cause.
    public var message: String?
    /// The photo's state this step found, when it found one: `damaged` for a step that failed because the photo's
    /// pixels could not be decoded (`DamagedImage`). The step event says it (docs/events.md).
    public var state: PhotoState? = nil
    /// The parameters this step applied when they are not the stage's own: a photo whose format an option is scoped
    /// to (a camera RAW's `raw:`). The step's row records them instead.
    public var parameters: String? = nil

    public static func done(input: String?, output: String?) -> StepResult {
        StepResult(status: .done, inputHash: input, outputHash: output, message: nil)
    }

    public static func skipped(_ reason: String, input: String?, output: String?) -> StepResult {
        StepResult(status: .skipped, inputHash: input, outputHash: output, message: reason)
    }

    public static func failed(_ reason: String, input: String? = nil) -> StepResult {
        StepResult(status: .failed, inputHash: input, outputHash: nil, message: reason)
    }
}
