/// A value bound to a statement or read from a row.
public enum Value: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

extension Value: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByNilLiteral {
    public init(stringLiteral value: String) { self = .text(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .real(value) }
    public init(nilLiteral: ()) { self = .null }
}

extension Value {
    /// `.text`, or `.null` for nil.
    public static func text(_ value: String?) -> Value { value.map { .text($0) } ?? .null }
    /// `.integer`, or `.null` for nil.
    public static func int(_ value: Int?) -> Value { value.map { .integer(Int64($0)) } ?? .null }
}
