import Raw

/// The magic bytes that say what a file is, looked for in its first bytes (`ImageFormat.sniff` reads 64), and for
/// the camera RAWs built on TIFF, what libraw's identify makes of the whole file.
///
/// ```
/// .bytes(Array("GIF89a".utf8))                               // at the start
/// .all([.bytes(Array("RIFF".utf8)), .bytes(Array("WEBP".utf8), at: 8)])
/// .isoBrand(["avif", "avis"])                                // an ISO media file (`ftyp` at 4) of one of these brands
/// .all([.tiff, .camera(.maker(["Nikon"]))])                  // a TIFF that libraw identifies as a Nikon RAW
/// ```
public enum FormatSignature: Sendable, Equatable {
    case bytes([UInt8], at: Int = 0)
    case isoBrand([String])
    /// What libraw's identify says of the whole file (`CameraMatch`); never true from the first bytes alone.
    case camera(CameraMatch)
    indirect case all([FormatSignature])
    indirect case anyOf([FormatSignature])
    indirect case not(FormatSignature)

    /// A TIFF's byte-order mark and magic number, either byte order: a plain TIFF, and most camera RAWs.
    public static let tiff: FormatSignature = .anyOf([.bytes([0x49, 0x49, 0x2A, 0x00]), .bytes([0x4D, 0x4D, 0x00, 0x2A])])

    /// Whether `head` (a file's first bytes) has this signature; `.camera` asks `identity` (libraw's identify of the
    /// whole file, nil when libraw does not know it as a RAW), which is called at most when a signature needs it.
    public func matches(_ head: [UInt8], identity: () -> RawIdentity? = { nil }) -> Bool {
        switch self {
        case .bytes(let magic, let offset):
            return head.count >= offset + magic.count && Array(head[offset..<offset + magic.count]) == magic
        case .isoBrand(let brands):
            return FormatSignature.isoBrand(of: head).map(brands.contains) ?? false
        case .camera(let match):
            return identity().map(match.matches) ?? false
        case .all(let parts):
            return parts.allSatisfy { $0.matches(head, identity: identity) }
        case .anyOf(let parts):
            return parts.contains { $0.matches(head, identity: identity) }
        case .not(let signature):
            return !signature.matches(head, identity: identity)
        }
    }

    /// The brand of an ISO media file (`ftyp` at offset 4, the brand after it); nil for any other bytes.
    static func isoBrand(of head: [UInt8]) -> String? {
        guard FormatSignature.bytes(Array("ftyp".utf8), at: 4).matches(head), head.count >= 12 else { return nil }
        return String(decoding: head[8..<12], as: UTF8.self)
    }
}

/// Which camera RAWs libraw's identify names a format: most RAWs are TIFF files, told apart from a plain TIFF and
/// from each other only by what their tags say, which libraw reads (album parses no container itself).
public enum CameraMatch: Sendable, Equatable {
    /// Any file libraw identifies as a RAW.
    case any
    /// A DNG (it has a `DNGVersion`), whoever made the camera.
    case dng
    /// A RAW that is not a DNG, from one of these makers as libraw normalises them ("Nikon", "Sony", …).
    case maker([String])

    public func matches(_ identity: RawIdentity) -> Bool {
        switch self {
        case .any: true
        case .dng: identity.isDNG
        case .maker(let makers): !identity.isDNG && makers.contains { $0.caseInsensitiveCompare(identity.make) == .orderedSame }
        }
    }
}
