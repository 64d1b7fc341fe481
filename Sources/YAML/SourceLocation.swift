/// A position in a source file.
///
/// Both fields are 1-based. `column` counts Unicode scalars (not bytes) from the
/// start of the line, so a caret can be placed under the right character even
/// after non-ASCII text.
public struct SourceLocation: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// 1-based line number.
    public var line: Int
    /// 1-based column, counted in Unicode scalars.
    public var column: Int

    /// Creates a location from a 1-based line and column.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// Orders locations by line, then column.
    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }

    /// `line:column`, as used in diagnostics.
    public var description: String { "\(line):\(column)" }
}
