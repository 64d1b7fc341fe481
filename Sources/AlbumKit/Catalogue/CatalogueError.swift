/// The catalogue cannot be used: album stops the run with exit status 3 (see the README's table).
public struct CatalogueError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
