import Raw
import System
import Vips

extension ImageFormat {
    /// Sniffs the format from a file's first bytes (at least 32 are looked at when present), among `formats`. From
    /// the first bytes alone, a camera RAW built on TIFF (DNG, NEF, ARW, …) is a TIFF: `sniff(_: FileBytes)` asks
    /// libraw.
    /// - Returns: the format, or a reason the bytes are not an image album reads.
    public static func sniff(_ head: [UInt8], in formats: [ImageFormat] = registered) -> Result<ImageFormat, SniffFailure> {
        if head.isEmpty { return .failure(.empty) }
        if let format = formats.first(where: { $0.matches(head) }) { return .success(format) }
        if let brand = FormatSignature.isoBrand(of: head) {
            return .failure(.unsupported("an ISO media file of brand '\(brand)' (a video or another unsupported format)"))
        }
        if let known = knownOther(head) { return .failure(.unsupported(known)) }
        return .failure(.notAnImage(textHint(head)))
    }

    /// Sniffs a file's format from its content: its first 64 bytes, and for bytes with TIFF's magic, libraw's
    /// identify of the whole file (headers only; at most once), which tells a camera RAW from a plain TIFF. Throws
    /// `SniffFailure`.
    public static func sniff(_ bytes: FileBytes, in formats: [ImageFormat] = registered) throws -> ImageFormat {
        let head = bytes.prefix(64)
        var identified: RawIdentity??
        let identity = { () -> RawIdentity? in
            if identified == nil { identified = .some(try? RawFile(bytes).identity) }
            return identified!
        }
        if let format = formats.first(where: { $0.matches(head, identity: identity) }) { return format }
        return try sniff(head, in: formats).get()
    }

    /// Opens an original with its format's decoder (`ImageDecoder`). Bytes no row names (or a row with no decoder)
    /// are left to libvips, which says why it cannot load them.
    public static func open(_ bytes: FileBytes, sequential: Bool, failOn: FailOn, shrink: Int = 1,
                            in formats: [ImageFormat] = registered) throws -> Image {
        let decoder = (try? sniff(bytes, in: formats))?.decoder ?? VipsLoader()
        return try decoder.open(bytes, sequential: sequential, failOn: failOn, shrink: shrink)
    }

    private static func knownOther(_ head: [UInt8]) -> String? {
        let table: [([UInt8], String)] = [
            (Array("%PDF".utf8), "a PDF document"), (Array("BM".utf8), "a BMP image"),
            ([0x00, 0x00, 0x01, 0x00], "an ICO icon"), (Array("8BPS".utf8), "a Photoshop document"),
            (Array("PK".utf8) + [3, 4], "a ZIP archive"), ([0x1F, 0x8B], "a gzip archive"),
            ([0x00, 0x00, 0x00, 0x0C, 0x6A, 0x50, 0x20, 0x20], "a JPEG 2000 image"),
            (Array("<svg".utf8), "an SVG drawing"),
        ]
        return table.first { head.starts(with: $0.0) }?.1
    }

    private static func textHint(_ head: [UInt8]) -> String {
        let text = String(decoding: head.prefix(64), as: UTF8.self).lowercased()
        if text.contains("<!doctype html") || text.contains("<html") { return "it is an HTML page" }
        if text.contains("<?xml") { return "it is an XML document" }
        let printable = head.prefix(64).allSatisfy { $0 == 9 || $0 == 10 || $0 == 13 || (32..<127).contains($0) || $0 >= 0x80 }
        return printable ? "it looks like text" : "its first bytes match no image format"
    }
}

/// Why a file is not an image album reads.
public enum SniffFailure: Error, Sendable, Equatable, CustomStringConvertible {
    case empty
    case notAnImage(String)
    case unsupported(String)

    public var description: String {
        switch self {
        case .empty: "not an image: the file is empty (0 bytes)"
        case .notAnImage(let hint): "not an image: \(hint)"
        case .unsupported(let what): "unsupported format: \(what)"
        }
    }
}
