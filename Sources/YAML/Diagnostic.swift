/// One error found while reading a job file, with the exact location of the
/// culprit and the offending source line for a caret display.
public struct Diagnostic: Sendable, Equatable, Error, CustomStringConvertible {
    /// The path as given by the caller, used only in messages.
    public var file: String
    /// Where the problem is (1-based line and column).
    public var location: SourceLocation
    /// One sentence starting in lower case, clang style.
    public var message: String
    /// The text of the offending line (without its line break), if known.
    public var sourceLine: String?

    public init(file: String, location: SourceLocation, message: String, sourceLine: String? = nil) {
        self.file = file
        self.location = location
        self.message = message
        self.sourceLine = sourceLine
    }

    /// Renders the diagnostic in clang/Swift style:
    ///
    ///     path:line:col: error: message
    ///     <source line>
    ///     <spaces>^
    ///
    /// The caret is placed by counting Unicode scalars; tabs in the source line
    /// are kept in the padding so that terminals align the caret correctly.
    public func rendered() -> String {
        var out = "\(file):\(location.line):\(location.column): error: \(message)"
        guard let line = sourceLine else { return out }
        out += "\n" + line + "\n"
        var pad = ""
        var index = 1
        for scalar in line.unicodeScalars where index < location.column {
            pad += scalar == "\t" ? "\t" : " "
            index += 1
        }
        if index < location.column {
            pad += String(repeating: " ", count: location.column - index)
        }
        out += pad + "^"
        return out
    }

    public var description: String { rendered() }
}
