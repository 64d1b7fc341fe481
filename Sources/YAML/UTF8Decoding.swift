/// Strict UTF-8 decoding and character-set validation for job files.
///
/// Produces the normalised scalars for `SourceText`, or diagnostics that
/// point at the offending byte's line and column. Never traps on bad input.
enum UTF8Decoding {
    /// The result of decoding: scalars (line breaks normalised) and the
    /// problems found.
    package struct Result {
        var chars: [Unicode.Scalar] = []
        package var problems: [(SourceLocation, String)] = []
    }

    /// Most character-set problems reported before giving up.
    static let maxProblems = 50

    /// Decodes `bytes`, skipping a leading BOM and normalising CR/CRLF to LF.
    /// Stops at the first invalid UTF-8 sequence; reports every disallowed
    /// character (C0/C1 controls, DEL, U+FFFE/U+FFFF, stray BOM, and the
    /// YAML 1.1 line breaks U+0085/U+2028/U+2029).
    package static func decode(_ bytes: [UInt8]) -> Result {
        var result = Result()
        result.chars.reserveCapacity(bytes.count)
        var i = 0
        var line = 1, column = 1
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { i = 3 }
        while i < bytes.count {
            let b0 = bytes[i]
            var scalarValue: UInt32 = 0
            var length = 0
            if b0 < 0x80 {
                scalarValue = UInt32(b0); length = 1
            } else if let (v, n) = decodeMultibyte(bytes, i) {
                scalarValue = v; length = n
            } else {
                let hex = String(b0, radix: 16, uppercase: true)
                result.problems.append((SourceLocation(line: line, column: column),
                    "invalid UTF-8 byte 0x\(hex.count < 2 ? "0" + hex : hex) at byte offset \(i); job files must be UTF-8"))
                return result
            }
            i += length
            if scalarValue == 0x0D {
                if i < bytes.count, bytes[i] == 0x0A { i += 1 }
                scalarValue = 0x0A
            }
            let scalar = Unicode.Scalar(scalarValue)!
            if let message = problem(with: scalarValue), result.problems.count < maxProblems {
                result.problems.append((SourceLocation(line: line, column: column), message))
            }
            result.chars.append(scalar)
            if scalarValue == 0x0A { line += 1; column = 1 } else { column += 1 }
        }
        return result
    }

    /// Decodes a 2-4 byte sequence starting at `i`; `nil` when it is not
    /// well-formed (overlong, surrogate, out of range, truncated).
    private static func decodeMultibyte(_ bytes: [UInt8], _ i: Int) -> (UInt32, Int)? {
        let b0 = bytes[i]
        let count: Int
        var value: UInt32
        var lower: UInt8 = 0x80, upper: UInt8 = 0xBF
        switch b0 {
        case 0xC2...0xDF: count = 2; value = UInt32(b0 & 0x1F)
        case 0xE0: count = 3; value = UInt32(b0 & 0x0F); lower = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: count = 3; value = UInt32(b0 & 0x0F)
        case 0xED: count = 3; value = UInt32(b0 & 0x0F); upper = 0x9F
        case 0xF0: count = 4; value = UInt32(b0 & 0x07); lower = 0x90
        case 0xF1...0xF3: count = 4; value = UInt32(b0 & 0x07)
        case 0xF4: count = 4; value = UInt32(b0 & 0x07); upper = 0x8F
        default: return nil
        }
        guard i + count <= bytes.count else { return nil }
        for k in 1..<count {
            let b = bytes[i + k]
            let lo: UInt8 = k == 1 ? lower : 0x80
            let hi: UInt8 = k == 1 ? upper : 0xBF
            guard b >= lo, b <= hi else { return nil }
            value = (value << 6) | UInt32(b & 0x3F)
        }
        return (value, count)
    }

    /// A message when `v` may not appear in a job file, else `nil`.
    private static func problem(with v: UInt32) -> String? {
        switch v {
        case 0x09, 0x0A: return nil
        case 0x00..<0x20, 0x7F, 0x80...0x84, 0x86...0x9F:
            return "control character U+\(hex4(v)) is not allowed; use an escape in a double-quoted string"
        case 0x85, 0x2028, 0x2029:
            return "character U+\(hex4(v)) is a line break in YAML 1.1 and is not supported; use an escape in a double-quoted string"
        case 0xFEFF:
            return "a byte order mark is only allowed at the start of the file"
        case 0xFFFE, 0xFFFF:
            return "non-character U+\(hex4(v)) is not allowed"
        default: return nil
        }
    }

    package static func hex4(_ v: UInt32) -> String {
        let hex = String(v, radix: 16, uppercase: true)
        return hex.count >= 4 ? hex : String(repeating: "0", count: 4 - hex.count) + hex
    }
}
