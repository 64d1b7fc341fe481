/// What one stage did to one photo: recorded as a step, reported as an event.
public struct StepResult: Sendable {
    public var status: StepRecord.Status
    public var inputHash: String?
    public var outputHash: String?
    /// For `skipped`: why (up to date, duplicate of …). For `failed`: the cause.
    public var message: String?

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
