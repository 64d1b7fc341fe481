import Exif
import Foundation
import Vips
import XMP

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
    /// The lens the file names (EXIF `LensModel`, or what libraw reads from a RAW).
    public var lens: String?
    /// `xmp:Rating` (−1…5), `xmp:Label`, the keywords (`dc:subject`, then `lr:hierarchicalSubject`'s paths) and
    /// `dc:title`: a sidecar's (`applying(sidecar:)`), else the embedded packet's.
    public var rating: Int? = nil
    public var label: String? = nil
    public var keywords: [String] = []
    public var title: String? = nil
    /// XMP's `dc:description`, likewise (the caption too, unless EXIF has one of its own).
    public var description: String? = nil
    /// Where the embedded XMP places a Motion Photo's movie, when it marks one (`MotionPart.find` checks it against the
    /// file's bytes); nil for a sidecar's packet, which says nothing about the file's bytes.
    public var motionMarker: XMPMotion? = nil
    /// Why the embedded XMP marks a Motion Photo but places no movie, in words; nil otherwise.
    public var motionProblem: String? = nil
    /// Why the embedded XMP (`xmp-data`) could not be read, in words; nil when it was, or there is none.
    public var embeddedXMPProblem: String? = nil
    /// A video's duration, codec, frame rate and place; nil for a still.
    public var video: VideoMetadata? = nil
    /// What the photo itself says, kept so that a sidecar's facts can be put over them (`applying(sidecar:)`).
    private var own: Own

    /// The photo's own facts a sidecar is weighed against.
    private struct Own: Sendable, Equatable {
        var taken: String?
        var description: String?
        var comment: String?
        var xmp: XMPPacket?
    }

    /// Facts read by another reader than libvips' (a camera RAW's, through libraw): the photo's own, with no XMP
    /// of its own yet (`applying(sidecar:)` puts a sidecar's over them).
    public init(width: Int, height: Int, orientation: Int, taken: String?, camera: String?, caption: String?, hasGPS: Bool,
                lens: String?) {
        self.width = width
        self.height = height
        self.orientation = orientation
        self.taken = taken
        self.camera = camera
        self.caption = caption
        self.hasGPS = hasGPS
        self.lens = lens
        own = Own(taken: taken, description: caption, comment: nil, xmp: nil)
    }

    /// Reads the fields from an opened image: EXIF from its `exif-data` block through libexif (each field's stored
    /// bytes, whole: libvips' string form of a field is cut to a fixed buffer and carries a description), XMP from
    /// `xmp-data` through libxml2 (`XMPPacket`).
    public init(image: Image) {
        orientation = image.orientation
        let swap = orientation >= 5
        width = swap ? image.height : image.width
        height = swap ? image.width : image.height
        let exif = ExifBlock(image.blob("exif-data") ?? [])
        let date = exif[.dateTimeOriginal].flatMap(ExifText.value)
        let offset = exif[.offsetTimeOriginal].flatMap(ExifText.value)
        let exifTaken = date.flatMap { PhotoMetadata.isoDate(exif: $0, offset: offset) }
        let make = exif[.make].flatMap(ExifText.value).map(PhotoMetadata.tidy) ?? ""
        let model = exif[.model].flatMap(ExifText.value).map(PhotoMetadata.tidy) ?? ""
        // Many models repeat the make ("Canon" + "Canon EOS 5D"): keep it once.
        let name = model.lowercased().hasPrefix(make.lowercased()) ? model : [make, model].filter { !$0.isEmpty }.joined(separator: " ")
        camera = name.isEmpty ? nil : name
        // The first caption found: ImageDescription, XMP's dc:description, UserComment, Windows' XPComment.
        func written(_ tag: ExifTag) -> String? {
            guard let text = exif[tag].flatMap(ExifText.value).map(PhotoMetadata.tidy) else { return nil }
            return PhotoMetadata.isCameraBoilerplate(text) ? nil : text
        }
        var xmp: XMPPacket? = nil
        if let packet = image.blob("xmp-data"), !packet.isEmpty {
            do { xmp = try XMPPacket(parsing: packet) } catch { embeddedXMPProblem = "its embedded XMP: \(error)" }
            motionMarker = xmp?.motion
            motionProblem = xmp?.motionProblem.map { "its embedded XMP: \($0)" }
        }
        own = Own(taken: exifTaken, description: written(.imageDescription),
                  comment: written(.userComment) ?? written(.xpComment), xmp: xmp)
        hasGPS = image.fieldNames.contains { $0.hasPrefix("exif-ifd3-GPS") }
        lens = exif[.lensModel].flatMap(ExifText.value).map(PhotoMetadata.tidy).flatMap { $0.isEmpty ? nil : $0 }
        self = applying(sidecar: nil)
    }

    /// The facts with a sidecar's put over the embedded XMP's, field by field: the sidecar's rating, label, keywords
    /// and title win over the embedded packet's, and those over nothing. The caption is the photo's EXIF
    /// ImageDescription, else `dc:description` (the sidecar's, else the embedded one's), else EXIF's UserComment or
    /// XPComment, else `dc:title`; the capture time is EXIF's, else the sidecar's, else the embedded packet's.
    public func applying(sidecar: XMPPacket?) -> PhotoMetadata {
        var facts = self
        let packets = [sidecar, own.xmp].compactMap { $0 }
        func first<V>(_ value: (XMPPacket) -> V?) -> V? { packets.lazy.compactMap(value).first }
        facts.rating = first(\.rating)
        facts.label = first(\.label)
        facts.title = first(\.title)
        facts.description = first(\.description)
        let keywords = packets.first { !$0.keywords.isEmpty || !$0.hierarchicalKeywords.isEmpty }
        var seen: Set<String> = []
        facts.keywords = ((keywords?.keywords ?? []) + (keywords?.hierarchicalKeywords ?? [])).filter { seen.insert($0).inserted }
        facts.caption = own.description ?? facts.description ?? own.comment ?? facts.title
        facts.taken = own.taken ?? first(\.taken)
        return facts
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
}

/// An EXIF text field's stored bytes as text. Nothing is dropped: bytes that are not UTF-8 are read as Windows-1252,
/// or else ISO 8859-1, so a Latin-1 "café" stays "café" and every byte stays visible.
enum ExifText {
    /// ASCII fields up to their NUL; UserComment by its 8-byte character code (`ASCII`, `UNICODE` in the block's byte
    /// order, `JIS`, or undefined); XPComment as UTF-16LE. nil for an empty value or another type.
    package static func value(_ field: ExifField) -> String? {
        let text: String?
        switch (field.format, field.bytes.count) {
        case (.ascii, _):
            text = legacy(Array(field.bytes.prefix { $0 != 0 }))
        case (.undefined, 8...):
            let code = field.bytes.prefix(8), body = Array(field.bytes.dropFirst(8))
            if code.elementsEqual(Array("UNICODE".utf8) + [0]) {
                text = utf16(body, bigEndian: field.bigEndian)
            } else if code.elementsEqual(Array("JIS".utf8) + [0, 0, 0, 0, 0]) {
                text = String(bytes: trimmedNULs(body), encoding: .iso2022JP)
                    ?? String(bytes: trimmedNULs(body), encoding: .shiftJIS) ?? legacy(trimmedNULs(body))
            } else {
                text = legacy(trimmedNULs(body))  // ASCII, or undefined (eight NULs)
            }
        case (.byte, _):
            text = utf16(field.bytes, bigEndian: false)
        default:
            text = nil
        }
        return text?.isEmpty == false ? text : nil
    }

    /// UTF-8 when the bytes are UTF-8, else Windows-1252, else ISO 8859-1 (which maps every byte).
    static func legacy(_ bytes: [UInt8]) -> String? {
        if let utf8 = String(validating: bytes, as: UTF8.self) { return utf8 }
        return String(bytes: bytes, encoding: .windowsCP1252) ?? String(bytes: bytes, encoding: .isoLatin1)
    }

    /// UTF-16 up to its first NUL unit, a byte-order mark overriding `bigEndian`; unpaired halves become U+FFFD.
    static func utf16(_ bytes: [UInt8], bigEndian: Bool) -> String? {
        var units: [UInt16] = []
        for i in stride(from: 0, to: bytes.count - 1, by: 2) {
            let (high, low) = bigEndian ? (bytes[i], bytes[i + 1]) : (bytes[i + 1], bytes[i])
            units.append(UInt16(high) << 8 | UInt16(low))
        }
        if units.first == 0xFFFE { units = units.dropFirst().map(\.byteSwapped) } else if units.first == 0xFEFF { units.removeFirst() }
        return String(decoding: units.prefix { $0 != 0 }, as: UTF16.self)
    }

    private static func trimmedNULs(_ bytes: [UInt8]) -> [UInt8] {
        Array(bytes.reversed().drop { $0 == 0 }.reversed())
    }
}
