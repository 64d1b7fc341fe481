/// Image formats recognised from their first bytes, never from a file's extension.
public enum ImageFormat: String, Sendable, CaseIterable {
    case jpeg, png, webp, heif, avif, tiff, gif, jxl

    /// Sniffs the format from a file's first bytes (at least 32 are looked at when present).
    /// - Returns: the format, or a reason the bytes are not an image album reads.
    public static func sniff(_ head: [UInt8]) -> Result<ImageFormat, SniffFailure> {
        func starts(_ magic: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + magic.count && Array(head[offset..<offset + magic.count]) == magic
        }
        if head.isEmpty { return .failure(.empty) }
        if starts([0xFF, 0xD8, 0xFF]) { return .success(.jpeg) }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .success(.png) }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return .success(.webp) }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return .success(.tiff) }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return .success(.gif) }
        if starts([0xFF, 0x0A]) || starts([0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]) {
            return .success(.jxl)
        }
        if starts(Array("ftyp".utf8), at: 4), head.count >= 12 {
            let brand = String(decoding: head[8..<12], as: UTF8.self)
            if ["avif", "avis"].contains(brand) { return .success(.avif) }
            if ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"].contains(brand) { return .success(.heif) }
            return .failure(.unsupported("an ISO media file of brand '\(brand)' (a video or another unsupported format)"))
        }
        if let known = knownOther(head) { return .failure(.unsupported(known)) }
        return .failure(.notAnImage(textHint(head)))
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
