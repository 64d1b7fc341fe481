@testable import Media


/// Declared defaults and ranges written the way docs/*.md writes them, for the tests that hold the docs to the
/// declarations.
enum DocsText {
    /// `0.85`, `1.0`, `1`, `` `"#704214"` ``.
    static func defaultText(_ parameter: FilterParameter) -> String {
        switch (parameter.kind, parameter.defaultValue) {
        case (.integer, .number(let number)): String(Int(number))
        case (_, .number(let number)): String(number)
        case (_, .colour(let colour)): "`\"\(colour.hex)\"`"
        }
    }

    /// `0–1`, `0.1–10`, `whole number 0–2147483647`, `` `#rrggbb` ``.
    static func rangeText(_ parameter: FilterParameter) -> String {
        switch parameter.kind {
        case .number(let range): "\(bound(range.lowerBound))–\(bound(range.upperBound))"
        case .integer(let range): "whole number \(range.lowerBound)–\(range.upperBound)"
        case .colour: "`#rrggbb`"
        }
    }

    /// A primitive's row in docs/filters.md's table.
    static func row(for primitive: any FilterPrimitive.Type) -> String {
        let parameters = primitive.declaredParameters
        let names = parameters.map { ($0.name == primitive.mainParameter.name ? "★ " : "") + "`\($0.name)`" }
        return "| `\(primitive.name)` | \(names.joined(separator: "; ")) | \(parameters.map(defaultText).joined(separator: "; ")) | "
            + "\(parameters.map(rangeText).joined(separator: "; ")) |"
    }

    /// A bound without a needless `.0`: `0`, `0.1`, `10`.
    static func bound(_ number: Double) -> String {
        number.rounded() == number && abs(number) < 1e15 ? String(Int(number)) : String(number)
    }
}
