/// A mistake in how album was called: printed with the command's usage line, exit status 2.
public struct UsageError: Error, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
}
