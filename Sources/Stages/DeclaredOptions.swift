import Core

/// A stage whose options are declared in one table: `parameters` is read from it, and so are the job file's keys
/// and the docs.
public protocol DeclaredOptions: Sendable {
    /// Every option in order: the order of the job file's "valid keys" and of the recorded parameters.
    static var options: [StageOption<Self>] { get }
}

extension DeclaredOptions {
    /// Every option with its value, defaults included: recorded as the step's parameters and hashed.
    public var parameters: JSONValue { .object(Self.options.flatMap { $0.parameters(of: self) }) }
}
