import Core

/// JSON rendering of parsed nodes, used by `album parse` and by the
/// differential corpus tests.
///
/// Rules (kept in sync with `tools/yaml-expected.py`):
/// - `null`, `true`/`false` and integers render as JSON literals.
/// - Floats render in Swift's shortest round-trip form, which always contains
///   a `.` or an exponent, so `1` (int) and `1.0` (float) stay distinguishable.
///   `.inf`, `-.inf` and `.nan` have no JSON form and render as the *strings*
///   `".inf"`, `"-.inf"` and `".nan"`.
/// - Mapping keys render as JSON strings: string keys as-is, other scalar keys
///   in canonical text (`"null"`, `"true"`, `"42"`, `"1.5"`, `".inf"`).
/// - Strings are escaped by `JSONValue`'s one string writer (RFC 8259: `"`, `\` and control characters below
///   U+0020, with the `\b \f \n \r \t` short forms, others `\u00XX`); everything else is emitted as UTF-8.
/// - Keys stay in document order; output is deterministic.
extension Node {
    /// Renders the node as JSON, compact (no spaces) or pretty (2-space indent), through `JSONValue`.
    public func jsonText(pretty: Bool) -> String {
        pretty ? json.prettyText : json.text
    }

    /// The node as a `JSONValue`, by the rules above.
    package var json: JSONValue {
        switch value {
        case .null: .null
        case .bool(let b): .bool(b)
        case .int(let i): .int(i)
        case .float(let d): d.isFinite ? .double(d) : .string(Node.floatText(d))
        case .string(let s): .string(s)
        case .sequence(let items): .array(items.map(\.json))
        case .mapping(let entries): .object(entries.map { ($0.key.keyText ?? "", $0.value.json) })
        }
    }
}
