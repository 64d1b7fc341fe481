/// The error thrown by `YAMLParser.parse`: every independent problem found in
/// one pass, sorted by location.
public struct DiagnosticList: Error, Sendable, Equatable, CustomStringConvertible {
    /// The diagnostics, sorted by line and column.
    public var diagnostics: [Diagnostic]

    /// Wraps `diagnostics`, sorting them by location.
    public init(_ diagnostics: [Diagnostic]) {
        self.diagnostics = diagnostics.sorted { $0.location < $1.location }
    }

    /// All diagnostics rendered, separated by newlines.
    public func rendered() -> String {
        diagnostics.map { $0.rendered() }.joined(separator: "\n")
    }

    public var description: String { rendered() }
}
