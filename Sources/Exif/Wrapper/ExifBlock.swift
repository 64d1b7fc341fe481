internal import CExif

/// The EXIF fields album reads, each named by its IFD and tag number (EXIF 2.32, and Microsoft's XP tags).
public enum ExifTag: CaseIterable, Sendable {
    case imageDescription, make, model, xpComment
    case dateTimeOriginal, offsetTimeOriginal, userComment, lensModel

    var ifd: ExifIfd {
        switch self {
        case .imageDescription, .make, .model, .xpComment: EXIF_IFD_0
        case .dateTimeOriginal, .offsetTimeOriginal, .userComment, .lensModel: EXIF_IFD_EXIF
        }
    }

    var number: UInt32 {
        switch self {
        case .imageDescription: 0x010E
        case .make: 0x010F
        case .model: 0x0110
        case .xpComment: 0x9C9C
        case .dateTimeOriginal: 0x9003
        case .offsetTimeOriginal: 0x9011
        case .userComment: 0x9286
        case .lensModel: 0xA434
        }
    }
}

/// One field's value as stored: its bytes whole (an ASCII field's with its NUL), the type the file gives it, and the
/// block's byte order (which a `UNICODE` UserComment's UTF-16 follows).
public struct ExifField: Sendable, Equatable {
    public enum Format: Sendable, Equatable {
        case ascii, byte, undefined, other
    }

    public var format: Format
    public var bytes: [UInt8]
    public var bigEndian: Bool

    public init(format: Format, bytes: [UInt8], bigEndian: Bool) {
        self.format = format
        self.bytes = bytes
        self.bigEndian = bigEndian
    }
}

/// A photo's EXIF block (libvips' `exif-data` field) read by libexif, the library libvips itself parses it with.
/// libvips' string form of a field is libexif's formatted value cut to a fixed buffer plus a description; the fields
/// here are the stored bytes, whole.
public struct ExifBlock: Sendable {
    public let fields: [ExifTag: ExifField]

    /// The fields found in `blob`: the `Exif\0\0` header and a TIFF structure, or the TIFF structure alone (as a PNG
    /// `eXIf` chunk holds it). A block libexif cannot read has no fields.
    public init(_ blob: [UInt8]) {
        let header: [UInt8] = Array("Exif".utf8) + [0, 0]
        let bytes = blob.starts(with: header) ? blob : header + blob
        var found: [ExifTag: ExifField] = [:]
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, let data = album_exif_load(base, UInt32(clamping: buffer.count)) else {
                return
            }
            defer { exif_data_unref(data) }
            let bigEndian = exif_data_get_byte_order(data) == EXIF_BYTE_ORDER_MOTOROLA
            for tag in ExifTag.allCases {
                guard let entry = album_exif_entry(data, tag.ifd, ExifTag_(rawValue: tag.number)) else { continue }
                let size = Int(entry.pointee.size)
                let value = entry.pointee.data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
                let format: ExifField.Format = switch entry.pointee.format {
                case EXIF_FORMAT_ASCII: .ascii
                case EXIF_FORMAT_BYTE: .byte
                case EXIF_FORMAT_UNDEFINED: .undefined
                default: .other
                }
                found[tag] = ExifField(format: format, bytes: value, bigEndian: bigEndian)
            }
        }
        fields = found
    }

    public subscript(tag: ExifTag) -> ExifField? { fields[tag] }
}

/// libexif's C `ExifTag`, which Swift would otherwise confuse with ``ExifTag``.
typealias ExifTag_ = CExif.ExifTag
