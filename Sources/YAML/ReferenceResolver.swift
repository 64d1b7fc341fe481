/// The implicit-tag rules of the reference implementation (ruamel.yaml in
/// YAML 1.2 mode), transcribed from its resolver's regular expressions.
///
/// Only used to detect plain scalars whose type the reference reads
/// differently from the YAML 1.2 core schema; those are rejected.
enum ReferenceResolver {
    /// The tag the reference implementation would give a plain scalar.
    enum Tag: Equatable { case null, bool, int, float, merge, timestamp, valueTag, string }

    /// Classifies the bytes of a plain scalar.
    package static func tag(_ b: [UInt8]) -> Tag {
        let s = String(decoding: b, as: UTF8.self)
        switch s {
        case "", "~", "null", "Null", "NULL": return .null
        case "true", "True", "TRUE", "false", "False", "FALSE": return .bool
        case "<<": return .merge
        case "=": return .valueTag
        default: break
        }
        if isFloat(b) { return .float }
        if isInt(b) { return .int }
        if isTimestamp(b) { return .timestamp }
        return .string
    }

    private static func digit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
    private static func sign(_ b: [UInt8], _ i: inout Int) {
        if i < b.count, b[i] == 0x2B || b[i] == 0x2D { i += 1 }
    }
    /// Consumes characters in `set` (plus `_` when `underscore`); returns how many.
    private static func run(_ b: [UInt8], _ i: inout Int, underscore: Bool = true, _ ok: (UInt8) -> Bool) -> Int {
        let start = i
        while i < b.count, ok(b[i]) || (underscore && b[i] == 0x5F) { i += 1 }
        return i - start
    }
    /// `[eE][-+]?[0-9]+` (sign mandatory when `needSign`); true if consumed to the end.
    private static func exponentToEnd(_ b: [UInt8], _ i: Int, needSign: Bool) -> Bool {
        var i = i
        guard i < b.count, b[i] == 0x65 || b[i] == 0x45 else { return false }
        i += 1
        if i < b.count, b[i] == 0x2B || b[i] == 0x2D { i += 1 } else if needSign { return false }
        let n = run(b, &i, underscore: false, digit)
        return n > 0 && i == b.count
    }

    /// ruamel 1.2 float: `[-+]?[0-9][0-9_]*\.[0-9_]*(exp)?`, `[-+]?[0-9][0-9_]*exp`,
    /// `[-+]?\.[0-9_]+([eE][-+][0-9]+)?`, `[-+]?\.inf`, `\.nan` (three spellings each).
    static func isFloat(_ b: [UInt8]) -> Bool {
        let s = String(decoding: b, as: UTF8.self)
        if [".nan", ".NaN", ".NAN"].contains(s) { return true }
        var i = 0
        sign(b, &i)
        let rest = String(decoding: b[i...], as: UTF8.self)
        if [".inf", ".Inf", ".INF"].contains(rest) { return true }
        if i < b.count, digit(b[i]) {
            i += 1
            _ = run(b, &i, digit)
            if i < b.count, b[i] == 0x2E {
                i += 1
                _ = run(b, &i, digit)
                return i == b.count || exponentToEnd(b, i, needSign: false)
            }
            return exponentToEnd(b, i, needSign: false)
        }
        if i < b.count, b[i] == 0x2E {
            i += 1
            guard run(b, &i, digit) > 0 else { return false }
            return i == b.count || exponentToEnd(b, i, needSign: true)
        }
        return false
    }

    /// ruamel 1.2 int: `[-+]?0b[0-1_]+`, `[-+]?0o?[0-7_]+`, `[-+]?[0-9_]+`, `[-+]?0x[0-9a-fA-F_]+`.
    static func isInt(_ b: [UInt8]) -> Bool {
        var i = 0
        sign(b, &i)
        let body = Array(b[i...])
        func all(_ from: Int, _ ok: (UInt8) -> Bool) -> Bool {
            from < body.count && body[from...].allSatisfy { ok($0) || $0 == 0x5F }
        }
        if body.count >= 2, body[0] == 0x30 {
            if body[1] == 0x62 { return all(2) { $0 == 0x30 || $0 == 0x31 } }
            if body[1] == 0x78 { return all(2, ScalarResolver.isHex) }
            if body[1] == 0x6F { return all(2) { $0 >= 0x30 && $0 <= 0x37 } }
        }
        return all(0, digit)
    }

    /// ruamel timestamp: `YYYY-MM-DD` or `YYYY-M-D(T| +)H:MM:SS(.frac)?( *(Z|±H(:MM)?))?`.
    static func isTimestamp(_ b: [UInt8]) -> Bool {
        if ScalarResolver.isPlainDate(b) { return true }
        var i = 0
        func digits(_ min: Int, _ max: Int) -> Bool {
            var n = 0
            while i < b.count, n < max, digit(b[i]) { i += 1; n += 1 }
            return n >= min
        }
        func lit(_ c: UInt8) -> Bool {
            guard i < b.count, b[i] == c else { return false }
            i += 1; return true
        }
        guard digits(4, 4), lit(0x2D), digits(1, 2), lit(0x2D), digits(1, 2) else { return false }
        if !lit(0x54), !lit(0x74) {
            guard i < b.count, b[i] == 0x20 || b[i] == 0x09 else { return false }
            while i < b.count, b[i] == 0x20 || b[i] == 0x09 { i += 1 }
        }
        guard digits(1, 2), lit(0x3A), digits(2, 2), lit(0x3A), digits(2, 2) else { return false }
        if lit(0x2E) { _ = run(b, &i, underscore: false, digit) }
        while i < b.count, b[i] == 0x20 || b[i] == 0x09 { i += 1 }
        if i == b.count { return true }
        if lit(0x5A) { return i == b.count }
        guard lit(0x2B) || lit(0x2D), digits(1, 2) else { return false }
        if lit(0x3A) { guard digits(2, 2) else { return false } }
        return i == b.count
    }
}
