/// File names are bytes on Linux, but album's paths are Swift strings (and catalogue text). A name that is not
/// valid UTF-8 is carried losslessly by mapping each byte that cannot be decoded to a private-use character,
/// U+F780 + (byte − 0x80), and mapping it back before any system call ("UTF-8b" in its private-use form).
///
/// Every system call on a path that may come from a scan goes through `withCString`, so a photo named with
/// Latin-1 bytes is read like any other.
public enum NativePath {
    static let base: UInt32 = 0xF780

    /// The string for a file name's raw bytes.
    public static func string(_ bytes: [UInt8]) -> String {
        // Almost every name is valid UTF-8: decoded as a whole, the same scalars the loop below gives it.
        if let valid = String(validating: bytes, as: UTF8.self) { return valid }
        var out = String.UnicodeScalarView()
        var index = 0
        while index < bytes.count {
            let length = validLength(bytes[index..<min(index + 4, bytes.count)])
            if length == 0 {
                out.append(Unicode.Scalar(base + UInt32(bytes[index]) - 0x80)!)
                index += 1
            } else {
                out.append(contentsOf: String(decoding: bytes[index..<index + length], as: UTF8.self).unicodeScalars)
                index += length
            }
        }
        return String(out)
    }

    /// The raw bytes a string stands for.
    public static func bytes(_ path: String) -> [UInt8] {
        if !carriesRawBytes(path) { return Array(path.utf8) }
        var out: [UInt8] = []
        out.reserveCapacity(path.utf8.count)
        for scalar in path.unicodeScalars {
            if (base..<base + 0x80).contains(scalar.value) {
                out.append(UInt8(scalar.value - base + 0x80))
            } else {
                out.append(contentsOf: String(scalar).utf8)
            }
        }
        return out
    }

    /// Calls `body` with the NUL-terminated raw path, for open, stat and friends.
    public static func withCString<R>(_ path: String, _ body: (UnsafePointer<CChar>) throws -> R) rethrows -> R {
        // A path with no byte mapped to a private-use character is its own UTF-8: passed without a copy (a stat
        // per photo and more: this was 15 % of a scan's time at 10^5 photos).
        if !carriesRawBytes(path) { return try path.withCString(body) }
        var raw = bytes(path).map { CChar(bitPattern: $0) }
        raw.append(0)
        return try raw.withUnsafeBufferPointer { try body($0.baseAddress!) }
    }

    /// Whether `path` may hold a character standing for a raw byte: those (U+F780 to U+F7FF) all begin with the
    /// UTF-8 byte 0xEF, so a path without that byte is its own raw bytes.
    static func carriesRawBytes(_ path: String) -> Bool {
        path.utf8.withContiguousStorageIfAvailable { $0.contains(0xEF) } ?? path.utf8.contains(0xEF)
    }

    /// The length of the valid UTF-8 sequence at the start of `slice`, or 0 when its first byte starts none.
    static func validLength(_ slice: ArraySlice<UInt8>) -> Int {
        let b = Array(slice)
        guard let first = b.first else { return 0 }
        func cont(_ i: Int) -> Bool { i < b.count && b[i] & 0xC0 == 0x80 }
        switch first {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: return cont(1) ? 2 : 0
        case 0xE0: return b.count > 1 && (0xA0...0xBF).contains(b[1]) && cont(2) ? 3 : 0
        case 0xED: return b.count > 1 && (0x80...0x9F).contains(b[1]) && cont(2) ? 3 : 0
        case 0xE1...0xEF: return cont(1) && cont(2) ? 3 : 0
        case 0xF0: return b.count > 1 && (0x90...0xBF).contains(b[1]) && cont(2) && cont(3) ? 4 : 0
        case 0xF4: return b.count > 1 && (0x80...0x8F).contains(b[1]) && cont(2) && cont(3) ? 4 : 0
        case 0xF1...0xF3: return cont(1) && cont(2) && cont(3) ? 4 : 0
        default: return 0
        }
    }
}
