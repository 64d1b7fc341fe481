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

    /// The range as docs/filters.md writes it: `0–1`, `0.1–10`, `whole number 0–2147483647`, `#rrggbb`.
    public var rangeText: String {
        switch kind {
        case .number(let range): "\(FilterParameter.text(range.lowerBound))–\(FilterParameter.text(range.upperBound))"
        case .integer(let range): "whole number \(range.lowerBound)–\(range.upperBound)"
        case .colour: "`#rrggbb`"
        }
    }

    /// The default as docs/filters.md writes it: `0.85`, `1.0`, `1`, `"#704214"`.
    public var defaultText: String {
        switch (kind, defaultValue) {
        case (.integer, .number(let number)): String(Int(number))
        case (_, .number(let number)): String(number)
        case (_, .colour(let colour)): "`\"\(colour.hex)\"`"
        }
    }

    /// A bound without a needless `.0`: `0`, `0.1`, `10`.
    private static func text(_ number: Double) -> String {
        number.rounded() == number && abs(number) < 1e15 ? String(Int(number)) : String(number)
    }
}
