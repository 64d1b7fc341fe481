/// A stage failed for one photo. The message is a sentence that names the cause; the run goes on.
public struct StageError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
