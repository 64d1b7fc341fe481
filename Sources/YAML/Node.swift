/// A parsed YAML node together with the location where it starts.
public struct Node: Sendable, Equatable {
    /// The resolved value of a node (YAML 1.2 core schema).
    public enum Value: Sendable, Equatable {
        case null
        case bool(Bool)
        case int(Int)
        case float(Double)
        case string(String)
        case sequence([Node])
        /// Mapping entries in document order.
        case mapping([Entry])
    }

    /// One `key: value` pair of a mapping.
    public struct Entry: Sendable, Equatable {
        public var key: Node
        public var value: Node

        public init(key: Node, value: Node) {
            self.key = key
            self.value = value
        }
    }

    /// The node's value.
    public var value: Value
    /// Where the node starts (for collections: the first entry or the bracket).
    public var location: SourceLocation

    public init(value: Value, location: SourceLocation) {
        self.value = value
        self.location = location
    }

    /// The value of `key` when this node is a mapping with a string (or scalar
    /// whose text equals `key`) key; `nil` otherwise.
    public subscript(key: String) -> Node? {
        guard case .mapping(let entries) = value else { return nil }
        return entries.first { $0.key.keyText == key }?.value
    }

    /// The element at `index` when this node is a sequence.
    public subscript(index: Int) -> Node? {
        guard case .sequence(let items) = value, items.indices.contains(index) else { return nil }
        return items[index]
    }

    /// The string when the node is a string scalar.
    public var stringValue: String? {
        if case .string(let s) = value { return s }
        return nil
    }

    /// The integer when the node is an integer scalar.
    public var intValue: Int? {
        if case .int(let i) = value { return i }
        return nil
    }

    /// The number when the node is an integer or float scalar.
    public var doubleValue: Double? {
        switch value {
        case .int(let i): return Double(i)
        case .float(let d): return d
        default: return nil
        }
    }

    /// The boolean when the node is a bool scalar.
    public var boolValue: Bool? {
        if case .bool(let b) = value { return b }
        return nil
    }

    /// `true` for `.null`.
    public var isNull: Bool { value == .null }

    /// Items when the node is a sequence.
    public var sequenceValue: [Node]? {
        if case .sequence(let items) = value { return items }
        return nil
    }

    /// Entries when the node is a mapping.
    public var mappingValue: [Entry]? {
        if case .mapping(let entries) = value { return entries }
        return nil
    }

    /// Text of a scalar used as a key: strings as-is, other scalars in their
    /// canonical form (`null`, `true`, `42`, `1.5`, `.inf`). `nil` for collections.
    public var keyText: String? {
        switch value {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .float(let d): return Node.floatText(d)
        case .string(let s): return s
        case .sequence, .mapping: return nil
        }
    }

    /// Canonical text for a float: Swift's shortest round-trip form (which
    /// always carries a `.` or an exponent), or `.inf`, `-.inf`, `.nan`.
    public static func floatText(_ d: Double) -> String {
        if d.isNaN { return ".nan" }
        if d.isInfinite { return d < 0 ? "-.inf" : ".inf" }
        return d.description
    }
}
