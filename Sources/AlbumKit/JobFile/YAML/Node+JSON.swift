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
/// - Strings escape `"`, `\` and control characters below U+0020 (`\b \f \n
///   \r \t` short forms, others `\u00XX`); everything else is emitted as UTF-8.
/// - Keys stay in document order; output is deterministic.
extension Node {
    /// Renders the node as JSON, compact (no spaces) or pretty (2-space indent).
    public func jsonText(pretty: Bool) -> String {
        var out = ""
        Node.writeJSON(self, into: &out, pretty: pretty, level: 0)
        return out
    }

    private static func writeJSON(_ node: Node, into out: inout String, pretty: Bool, level: Int) {
        switch node.value {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .float(let d):
            if d.isFinite { out += d.description } else { out += jsonString(floatText(d)) }
        case .string(let s): out += jsonString(s)
        case .sequence(let items):
            if items.isEmpty { out += "[]"; return }
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                newline(&out, pretty: pretty, level: level + 1)
                writeJSON(item, into: &out, pretty: pretty, level: level + 1)
            }
            newline(&out, pretty: pretty, level: level)
            out += "]"
        case .mapping(let entries):
            if entries.isEmpty { out += "{}"; return }
            out += "{"
            for (i, entry) in entries.enumerated() {
                if i > 0 { out += "," }
                newline(&out, pretty: pretty, level: level + 1)
                out += jsonString(entry.key.keyText ?? "")
                out += pretty ? ": " : ":"
                writeJSON(entry.value, into: &out, pretty: pretty, level: level + 1)
            }
            newline(&out, pretty: pretty, level: level)
            out += "}"
        }
    }

    private static func newline(_ out: inout String, pretty: Bool, level: Int) {
        guard pretty else { return }
        out += "\n"
        out += String(repeating: "  ", count: level)
    }

    /// Quotes and escapes `s` as a JSON string.
    static func jsonString(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
        return out
    }
}
