/// The magic bytes that say what a file is, looked for in its first bytes (`ImageFormat.sniff` reads 64).
///
/// ```
/// .bytes(Array("GIF89a".utf8))                               // at the start
/// .all([.bytes(Array("RIFF".utf8)), .bytes(Array("WEBP".utf8), at: 8)])
/// .isoBrand(["avif", "avis"])                                // an ISO media file (`ftyp` at 4) of one of these brands
/// ```
public enum FormatSignature: Sendable, Equatable {
    case bytes([UInt8], at: Int = 0)
    case isoBrand([String])
    indirect case all([FormatSignature])

    /// Whether `head` (a file's first bytes) has this signature.
    public func matches(_ head: [UInt8]) -> Bool {
        switch self {
        case .bytes(let magic, let offset):
            return head.count >= offset + magic.count && Array(head[offset..<offset + magic.count]) == magic
        case .isoBrand(let brands):
            return FormatSignature.isoBrand(of: head).map(brands.contains) ?? false
        case .all(let parts):
            return parts.allSatisfy { $0.matches(head) }
        }
    }

    /// The brand of an ISO media file (`ftyp` at offset 4, the brand after it); nil for any other bytes.
    static func isoBrand(of head: [UInt8]) -> String? {
        guard FormatSignature.bytes(Array("ftyp".utf8), at: 4).matches(head), head.count >= 12 else { return nil }
        return String(decoding: head[8..<12], as: UTF8.self)
    }
}
