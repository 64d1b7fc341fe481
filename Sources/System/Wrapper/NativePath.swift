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
        // An ASCII name, most of them, is its own string (a scan makes one per file it lists).
        if !bytes.contains(where: { $0 >= 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
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
        // Most paths carry no mapped byte (U+F780…U+F7FF is EF 9E xx or EF 9F xx in UTF-8): their UTF-8 is their
        // bytes, handed over as they are, with no array made (a no-op rerun stats each photo's files this way).
        var path = path
        if !path.withUTF8({ $0.contains(0xEF) }) { return try path.withCString(body) }
        var raw = bytes(path).map { CChar(bitPattern: $0) }
        raw.append(0)
        return try raw.withUnsafeBufferPointer { try body($0.baseAddress!) }
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
