import Foundation
import Vips

/// What import reads from a photo's header through libvips, before any pixel is decoded.
public struct PhotoMetadata: Sendable, Equatable {
    /// Upright size: width and height are swapped for orientations 5–8.
    public var width: Int
    public var height: Int
    public var orientation: Int
    /// `DateTimeOriginal` (+ `OffsetTimeOriginal`) as ISO-8601, e.g. "2008-04-20T19:12:06"; nil when absent or invalid.
    public var taken: String?
    public var camera: String?
    public var caption: String?
    public var hasGPS: Bool

    /// Reads the fields from an opened image.
    public init(image: Image) {
        orientation = image.orientation
        let swap = orientation >= 5
        width = swap ? image.height : image.width
        height = swap ? image.width : image.height
        let date = image.string("exif-ifd2-DateTimeOriginal").flatMap(ExifText.value)
        let offset = image.string("exif-ifd2-OffsetTimeOriginal").flatMap(ExifText.value)
        taken = date.flatMap { PhotoMetadata.isoDate(exif: $0, offset: offset) }
        let make = image.string("exif-ifd0-Make").flatMap(ExifText.value).map(PhotoMetadata.tidy) ?? ""
        let model = image.string("exif-ifd0-Model").flatMap(ExifText.value).map(PhotoMetadata.tidy) ?? ""
        // Many models repeat the make ("Canon" + "Canon EOS 5D"): keep it once.
        let name = model.lowercased().hasPrefix(make.lowercased()) ? model : [make, model].filter { !$0.isEmpty }.joined(separator: " ")
        camera = name.isEmpty ? nil : name
        let description = image.string("exif-ifd0-ImageDescription").flatMap(ExifText.value).map(PhotoMetadata.tidy)
            .flatMap { PhotoMetadata.isCameraBoilerplate($0) ? nil : $0 }
        caption = (description?.isEmpty == false) ? description : image.blob("xmp-data").flatMap(PhotoMetadata.xmpDescription)
        hasGPS = image.fieldNames.contains { $0.hasPrefix("exif-ifd3-GPS") }
    }

    /// "2008:04:20 19:12:06" (+ "+02:00") → "2008-04-20T19:12:06+02:00"; nil for zeros or nonsense.
    static func isoDate(exif: String, offset: String?) -> String? {
        let parts = exif.split(whereSeparator: { $0 == ":" || $0 == " " }).compactMap { Int($0) }
        guard parts.count >= 6 else { return nil }
        let (y, mo, d, h, mi, s) = (parts[0], parts[1], parts[2], parts[3], parts[4], parts[5])
        guard (1800...9999).contains(y), (1...12).contains(mo), (1...31).contains(d), (0...23).contains(h),
              (0...59).contains(mi), (0...60).contains(s) else { return nil }
        var text = String(format: "%04d-%02d-%02dT%02d:%02d:%02d", y, mo, d, h, mi, s)
        if let offset, offset.range(of: #"^[+-]\d\d:\d\d$"#, options: .regularExpression) != nil { text += offset }
        return text
    }

    /// Text cameras write into ImageDescription by default ("OLYMPUS DIGITAL CAMERA", "SONY DSC"): not a caption.
    static func isCameraBoilerplate(_ text: String) -> Bool {
        let upper = text.uppercased()
        return upper.isEmpty || upper.hasSuffix("DIGITAL CAMERA") || ["SONY DSC", "DSC", "DEFAULT", "EXIF_JPEG_PICTURE"].contains(upper)
    }

    private static func tidy(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespacesAndNewlines.union(.controlCharacters))
    }

    /// The first `dc:description` text in an XMP packet, if any.
    static func xmpDescription(_ xmp: [UInt8]) -> String? {
        let text = String(decoding: xmp, as: UTF8.self)
        guard let block = text.range(of: "<dc:description") else { return nil }
        let rest = text[block.upperBound...]
        guard let li = rest.range(of: "<rdf:li"), let open = rest[li.upperBound...].range(of: ">"),
              let close = rest[open.upperBound...].range(of: "</rdf:li>") else { return nil }
        let value = tidy(String(rest[open.upperBound..<close.lowerBound]))
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
        return value.isEmpty ? nil : value
    }
}

/// libvips shows EXIF values as `"VALUE (VALUE, TYPE, N components, M bytes)"`; this recovers `VALUE`.
enum ExifText {
    /// The value before libvips' description. The value may itself contain parentheses, so the description is
    /// matched from the end and the value is the text that appears twice, before and inside it.
    static func value(_ text: String) -> String? {
        guard let suffix = text.range(of: #", [^,()]+, \d+ components?, \d+ bytes?\)$"#, options: .regularExpression) else {
            return text
        }
        let head = text[..<suffix.lowerBound]  // "VALUE (VALUE"
        let length = (head.count - 2) / 2
        guard length >= 0, head.count == 2 * length + 2 else { return nil }
        let first = head.prefix(length)
        let second = head.suffix(length)
        guard first == second, head.dropFirst(length).hasPrefix(" (") else { return nil }
        return String(first)
    }
}
