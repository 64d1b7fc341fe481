import Core

/// One parameter of a filter primitive as job files, stored recipes and the docs see it: its name, what it takes
/// and its default. Declared once, in the primitive's `spec`, and read by everything else.
public struct FilterParameter: Sendable {
    /// What a parameter takes. Out-of-range values are job-file errors.
    public enum Kind: Sendable, Equatable {
        case number(ClosedRange<Double>)
        /// A whole number, e.g. a seed.
        case integer(ClosedRange<Int>)
        /// `#rrggbb`
        case colour
    }

    public let name: String
    public let kind: Kind
    /// The value a step that leaves this parameter out gets: the primitive's own written-out default.
    public let defaultValue: FilterArguments.Value

    /// The value's canonical JSON, as stored in a photo's recipe and hashed: `0.85`, `7`, `"#704214"`.
    public func canonical(_ value: FilterArguments.Value) -> JSONValue {
        switch (kind, value) {
        case (.integer, .number(let number)): .int(Int(number))
        case (_, .number(let number)): .double(number)
        case (_, .colour(let colour)): .string(colour.hex)
        }
    }
}
