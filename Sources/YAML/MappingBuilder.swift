/// Collects mapping entries in document order and reports duplicate keys.
///
/// Keys are compared by resolved value the way the reference implementation
/// (Python) compares them: `1`, `0x1`, `1.0` and `true` are the same key;
/// `"1"` (a string) is different. All `.nan` keys count as duplicates.
struct MappingBuilder {
    /// Identity of a scalar key for duplicate detection.
    enum KeyIdentity: Hashable {
        case null
        case int(Int)
        case float(Double)
        case nan
        case string(String)

        package init?(_ value: Node.Value) {
            switch value {
            case .null: self = .null
            case .bool(let b): self = .int(b ? 1 : 0)
            case .int(let i): self = .int(i)
            case .float(let d):
                if d.isNaN { self = .nan } else if let i = Int(exactly: d) { self = .int(i) } else { self = .float(d) }
            case .string(let s): self = .string(s)
            case .sequence, .mapping: return nil
            }
        }
    }

    package private(set) var entries: [Node.Entry] = []
    private var firstLocation: [KeyIdentity: SourceLocation] = [:]

    /// Appends an entry, reporting a duplicate key at `keyPos`.
    package mutating func add(key: Node, value: Node, keyPos: Int, parser: Parser) {
        if let identity = KeyIdentity(key.value) {
            if let first = firstLocation[identity] {
                parser.report("duplicate key '\(key.keyText ?? "")' (first defined on line \(first.line))", at: keyPos)
            } else {
                firstLocation[identity] = key.location
            }
        }
        entries.append(Node.Entry(key: key, value: value))
    }
}
