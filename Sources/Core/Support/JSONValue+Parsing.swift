/// Reading back the JSON album stored (step parameters, run counts), keeping the order of object keys.
extension JSONValue {
    /// Parses JSON text (RFC 8259). Returns nil for anything that is not exactly one JSON value.
    ///
    /// ```
    /// JSONValue(parsing: #"{"size":"240x240","quality":70}"#)?.prettyText
    /// ```
    public init?(parsing text: String) {
        var reader = Reader(scalars: Array(text.unicodeScalars))
        guard let value = reader.value(), reader.atEnd else { return nil }
        self = value
    }

    private struct Reader {
        let scalars: [Unicode.Scalar]
        var index = 0

        var atEnd: Bool {
            mutating get { skipSpace(); return index == scalars.count }
        }

        mutating func value(depth: Int = 0) -> JSONValue? {
            guard depth < 512 else { return nil }
            skipSpace()
            guard index < scalars.count else { return nil }
            switch scalars[index] {
            case "{":
                index += 1
                var members: [(String, JSONValue)] = []
                if take("}") { return .object(members) }
                repeat {
                    skipSpace()
                    guard take("\""), let key = string(), take(":"), let item = value(depth: depth + 1) else { return nil }
                    members.append((key, item))
                } while take(",")
                return take("}") ? .object(members) : nil
            case "[":
                index += 1
                var items: [JSONValue] = []
                if take("]") { return .array(items) }
                repeat {
                    guard let item = value(depth: depth + 1) else { return nil }
                    items.append(item)
                } while take(",")
                return take("]") ? .array(items) : nil
            case "\"":
                index += 1
                return string().map(JSONValue.string)
            case "t": return word("true", .bool(true))
            case "f": return word("false", .bool(false))
            case "n": return word("null", .null)
            default: return number()
            }
        }

        mutating func skipSpace() {
            while index < scalars.count, [" ", "\t", "\n", "\r"].contains(scalars[index]) { index += 1 }
        }

        mutating func take(_ scalar: Unicode.Scalar) -> Bool {
            skipSpace()
            guard index < scalars.count, scalars[index] == scalar else { return false }
            index += 1
            return true
        }

        mutating func word(_ text: String, _ value: JSONValue) -> JSONValue? {
            let expected = Array(text.unicodeScalars)
            guard index + expected.count <= scalars.count, Array(scalars[index..<index + expected.count]) == expected else { return nil }
            index += expected.count
            return value
        }

        /// The rest of a string whose opening quote was read.
        mutating func string() -> String? {
            var out = String.UnicodeScalarView()
            while index < scalars.count {
                let scalar = scalars[index]
                index += 1
                switch scalar {
                case "\"": return String(out)
                case "\\":
                    guard index < scalars.count else { return nil }
                    let escape = scalars[index]
                    index += 1
                    switch escape {
                    case "\"", "\\", "/": out.append(escape)
                    case "b": out.append("\u{8}")
                    case "f": out.append("\u{c}")
                    case "n": out.append("\n")
                    case "r": out.append("\r")
                    case "t": out.append("\t")
                    case "u":
                        guard var code = hex4() else { return nil }
                        if (0xD800..<0xDC00).contains(code) {  // a UTF-16 surrogate pair
                            guard word("\\u", .null) != nil, let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
                            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        }
                        guard let decoded = Unicode.Scalar(code) else { return nil }
                        out.append(decoded)
                    default: return nil
                    }
                default:
                    guard scalar.value >= 0x20 else { return nil }
                    out.append(scalar)
                }
            }
            return nil
        }

        mutating func hex4() -> UInt32? {
            guard index + 4 <= scalars.count, let code = UInt32(String(String.UnicodeScalarView(scalars[index..<index + 4])), radix: 16) else {
                return nil
            }
            index += 4
            return code
        }

        mutating func number() -> JSONValue? {
            let start = index
            while index < scalars.count, "+-0123456789.eE".unicodeScalars.contains(scalars[index]) { index += 1 }
            let text = String(String.UnicodeScalarView(scalars[start..<index]))
            if let int = Int(text) { return .int(int) }
            return Double(text).map(JSONValue.double)
        }
    }
}
