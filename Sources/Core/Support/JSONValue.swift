import Foundation

/// A JSON value whose objects keep their keys in the order they were built, so output is stable and readable.
///
/// Used for provenance (stage parameters are stored as canonical JSON and hashed), JSON events and `--json` output.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        lhs.text == rhs.text
    }

    /// A string value, or null for nil.
    public static func string(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }
    /// An int value, or null for nil.
    public static func int(_ value: Int?) -> JSONValue { value.map { .int($0) } ?? .null }

    /// Compact JSON text: no spaces, keys in order. Non-finite doubles become null (JSON has no form for them).
    public var text: String {
        var out = ""
        write(to: &out, indent: nil, level: 0)
        return out
    }

    /// Indented JSON text, two spaces a level.
    public var prettyText: String {
        var out = ""
        write(to: &out, indent: "  ", level: 0)
        return out
    }

    /// The indented text of this value as an item `level` containers deep: its inner lines indented as
    /// `prettyText` would indent them there (`ls --json` writes its array one item at a time).
    package func prettyText(level: Int) -> String {
        var out = ""
        write(to: &out, indent: "  ", level: level)
        return out
    }

    private func write(to out: inout String, indent: String?, level: Int) {
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .int(let value): out += String(value)
        case .double(let value):
            if !value.isFinite { out += "null" }
            else if value == value.rounded(), abs(value) < 1e15 { out += String(format: "%.1f", value) }
            else { out += "\(value)" }
        case .string(let value): JSONValue.writeString(value, to: &out)
        case .array(let items):
            writeContainer(items.map { (nil, $0) }, open: "[", close: "]", to: &out, indent: indent, level: level)
        case .object(let members):
            writeContainer(members.map { ($0.0, $0.1) }, open: "{", close: "}", to: &out, indent: indent, level: level)
        }
    }

    private func writeContainer(_ items: [(String?, JSONValue)], open: String, close: String,
                                to out: inout String, indent: String?, level: Int) {
        out += open
        if items.isEmpty { out += close; return }
        for (offset, (key, value)) in items.enumerated() {
            if offset > 0 { out += "," }
            if let indent { out += "\n" + String(repeating: indent, count: level + 1) }
            if let key {
                JSONValue.writeString(key, to: &out)
                out += indent == nil ? ":" : ": "
            }
            value.write(to: &out, indent: indent, level: level + 1)
        }
        if let indent { out += "\n" + String(repeating: indent, count: level) }
        out += close
    }

    /// Writes `value` as a JSON string literal: album's one JSON string escaper, for stored parameters, events,
    /// `--json` output and `album parse`.
    ///
    /// RFC 8259, section 7: `"` and `\` are escaped, and so is every control character below U+0020, with the short
    /// forms `\b \f \n \r \t` and `\u00xx` for the others; everything else is written as itself, in UTF-8 (the
    /// same rules as Python's `json.dumps(ensure_ascii=False)`, which tools/yaml-expected.py uses). No JSON album
    /// writes lands in an HTML page, so `<`, `&`, U+2028 and U+2029 need no escape.
    static func writeString(_ value: String, to out: inout String) {
        out += "\""
        out += value.escapingScalars { scalar in
            switch scalar {
            case "\"": "\\\""
            case "\\": "\\\\"
            case "\n": "\\n"
            case "\r": "\\r"
            case "\t": "\\t"
            case "\u{08}": "\\b"
            case "\u{0C}": "\\f"
            case _ where scalar.value < 0x20: "\\u00" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
            default: nil
            }
        }
        out += "\""
    }
}
