/// Resolves plain scalars with the YAML 1.2 core schema, and refuses those
/// that YAML 1.1-era readers (including ruamel.yaml's 1.2 mode, our reference
/// implementation) would read differently, so a job file never means two
/// different things to two tools.
enum ScalarResolver {
    /// Either the resolved value or an error message for the scalar.
    enum Resolution: Equatable {
        case value(Node.Value)
        case error(String)
    }

    /// Resolves the text of a plain scalar.
    package static func resolve(_ text: String) -> Resolution {
        let b = Array(text.utf8)
        let core = coreValue(text, b)
        if case .error = core { return core }
        let reference = ReferenceResolver.tag(b)
        switch (core, reference) {
        case (.value(.string), .string), (.value(.string), .merge), (.value(.string), .valueTag):
            return core
        case (.value(.string), .timestamp):
            // `2024-06-01` is accepted as a string as documented; other forms are refused.
            if isPlainDate(b) { return core }
            return .error("timestamp-like value '\(text)' is not supported (other YAML tools read it as a date); quote it")
        case (.value(.null), .null), (.value(.bool), .bool), (.value(.int), .int), (.value(.float), .float):
            return core
        default:
            return .error("ambiguous value '\(text)': YAML tools disagree on its type; quote it or write the number in YAML 1.2 core form")
        }
    }

    /// The core-schema value of `text` (bytes `b`).
    static func coreValue(_ text: String, _ b: [UInt8]) -> Resolution {
        switch text {
        case "", "~", "null", "Null", "NULL": return .value(.null)
        case "true", "True", "TRUE": return .value(.bool(true))
        case "false", "False", "FALSE": return .value(.bool(false))
        case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF": return .value(.float(.infinity))
        case "-.inf", "-.Inf", "-.INF": return .value(.float(-.infinity))
        case ".nan", ".NaN", ".NAN": return .value(.float(.nan))
        default: break
        }
        if let radix = intRadix(b) {
            let digits = radix == 10 ? text : String(text.dropFirst(2))
            if let i = Int(digits, radix: radix) { return .value(.int(i)) }
            return .error("integer out of range: '\(text)' does not fit in 64 bits")
        }
        if isCoreFloat(b), let d = Double(text) { return .value(.float(d)) }
        return .value(.string(text))
    }

    /// 10, 8 or 16 when `b` is a core-schema integer, else `nil`.
    static func intRadix(_ b: [UInt8]) -> Int? {
        if b.count > 2, b[0] == UInt8(ascii: "0") {
            let rest = b[2...]
            if b[1] == UInt8(ascii: "o"), rest.allSatisfy({ $0 >= 0x30 && $0 <= 0x37 }) { return 8 }
            if b[1] == UInt8(ascii: "x"), rest.allSatisfy(isHex) { return 16 }
        }
        var i = 0
        if i < b.count, b[i] == UInt8(ascii: "-") || b[i] == UInt8(ascii: "+") { i += 1 }
        guard i < b.count, b[i...].allSatisfy(isDigit) else { return nil }
        return 10
    }

    /// `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`
    static func isCoreFloat(_ b: [UInt8]) -> Bool {
        var i = 0
        if i < b.count, b[i] == UInt8(ascii: "-") || b[i] == UInt8(ascii: "+") { i += 1 }
        let intStart = i
        while i < b.count, isDigit(b[i]) { i += 1 }
        let intDigits = i - intStart
        if i < b.count, b[i] == UInt8(ascii: ".") {
            i += 1
            let fracStart = i
            while i < b.count, isDigit(b[i]) { i += 1 }
            if intDigits == 0 && i == fracStart { return false }
        } else if intDigits == 0 {
            return false
        }
        if i < b.count, b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E") {
            i += 1
            if i < b.count, b[i] == UInt8(ascii: "-") || b[i] == UInt8(ascii: "+") { i += 1 }
            let expStart = i
            while i < b.count, isDigit(b[i]) { i += 1 }
            if i == expStart { return false }
        }
        return i == b.count
    }

    /// `YYYY-MM-DD` exactly.
    static func isPlainDate(_ b: [UInt8]) -> Bool {
        guard b.count == 10 else { return false }
        for (i, c) in b.enumerated() {
            if i == 4 || i == 7 { if c != UInt8(ascii: "-") { return false } } else if !isDigit(c) { return false }
        }
        return true
    }

    static func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
    static func isHex(_ c: UInt8) -> Bool {
        isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66)
    }
}
