import Raw
import Vips

/// One image format album knows: one row of the format table (`ImageFormat.registered`), the one place its name,
/// file extensions, magic bytes, decoder, encoder and metadata are written.
///
/// Import's default `include` (every row's extensions), the sniffing of a file's first bytes (never its
/// extension), how an original is decoded (`decoder`), and what an export or a thumbnail may write and the
/// extension it takes (`encoder`) all come from the table:
/// ```
/// ImageFormat(name: "png", extensions: ["png"], signatures: [.bytes([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])],
///             decoder: VipsLoader(), encoder: .png, metadata: [.exif, .xmp, .icc])
/// ```
/// Adding a format is one row in `ImageFormat+Registered.swift`; a new kind of media brings its decoder in a
/// file of its own (`ImageDecoder`). Worked example: `FormatTableTests.testANewFormatGetsEverythingFromItsRow`.
public struct ImageFormat: RawRepresentable, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// A metadata block a format can carry.
    public enum Metadata: String, Sendable { case exif, xmp, icc }
    /// What a file of the format holds: an image, a camera's RAW sensor data (with, usually, embedded previews), or a
    /// video (whose poster frame stands for its pixels).
    public enum Kind: String, Sendable { case image, cameraRaw = "camera-raw", video }
    /// A smaller image a file of the format may carry, which a rendering may start from (`ImageDecoder.source`).
    public enum Embedded: String, Sendable {
        /// A camera RAW's JPEG preview (libraw).
        case preview
        /// A HEIF or AVIF file's thumbnail item (libheif, through libvips' heifload).
        case thumbnail
    }

    /// The format's name: what `photos.format` records and `select: {format: …}` matches.
    public let rawValue: String
    /// The file extensions import considers by default, lowercase, without the dot; the first is the one album
    /// writes.
    public let extensions: [String]
    /// The magic bytes that say a file is in this format (any one of them).
    public let signatures: [FormatSignature]
    /// How album decodes it; nil for a format album recognises but cannot decode.
    public let decoder: (any ImageDecoder)?
    /// The libvips saver that writes it; nil for a format album reads only.
    public let encoder: OutputFormat?
    /// The metadata blocks it carries.
    public let metadata: Set<Metadata>
    /// An image, or a camera RAW.
    public let kind: Kind
    /// The smaller image its files may carry, if any.
    public let embedded: Embedded?
    /// Whether its decoder opens a file by its path and reads only what it needs (FFmpeg, for a video): album then
    /// never reads such a file whole, it hashes it as a stream and holds its first bytes (`ImageFormat.readOriginal`),
    /// so its size has no cap.
    public let opensByPath: Bool

    public init(name: String, extensions: [String], signatures: [FormatSignature], decoder: (any ImageDecoder)?,
                encoder: OutputFormat?, metadata: Set<Metadata>, kind: Kind = .image, embedded: Embedded? = nil,
                opensByPath: Bool = false) {
        self.rawValue = name
        self.extensions = extensions
        self.signatures = signatures
        self.decoder = decoder
        self.encoder = encoder
        self.metadata = metadata
        self.kind = kind
        self.embedded = embedded
        self.opensByPath = opensByPath
    }

    /// Whether files of the format are a camera's RAW data (a RAW+JPEG pair's RAW: the same name with a RAW
    /// extension and an image's).
    public var isRaw: Bool { kind == .cameraRaw }

    /// The registered format called `rawValue`.
    public init?(rawValue: String) {
        guard let found = ImageFormat.registered.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = found
    }

    public static var allCases: [ImageFormat] { registered }

    public var description: String { rawValue }

    public static func == (lhs: ImageFormat, rhs: ImageFormat) -> Bool { lhs.rawValue == rhs.rawValue }
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

    /// Whether a file's first bytes say it is in this format; `identity` is libraw's identify of the whole file,
    /// for the signatures that need it (`FormatSignature.camera`).
    public func matches(_ head: [UInt8], identity: () -> RawIdentity? = { nil }) -> Bool {
        signatures.contains { $0.matches(head, identity: identity) }
    }

    /// The extension files written in this format take: its first.
    public var fileExtension: String { extensions[0] }

    /// Every extension of `formats`, in the table's order: import's default `include` (as `*.EXT`).
    public static func extensions(of formats: [ImageFormat] = registered) -> [String] { formats.flatMap(\.extensions) }

    /// The format album writes for files named `*.EXT` (any case): a row with that extension and an encoder.
    public static func written(fileExtension ext: String, in formats: [ImageFormat] = registered) -> OutputFormat? {
        formats.first { $0.encoder != nil && $0.extensions.contains(ext.lowercased()) }?.encoder
    }

    /// The registered formats' names in words, "jpeg, png, …, gif or jxl" (`album ls --format`'s help).
    public static var namesInWords: String {
        let names = registered.map(\.rawValue)
        return names.dropLast().joined(separator: ", ") + (names.count > 1 ? " or " : "") + (names.last ?? "")
    }

    /// The row that writes `format`.
    public static func row(writing format: OutputFormat, in formats: [ImageFormat] = registered) -> ImageFormat? {
        formats.first { $0.encoder == format }
    }
}

extension OutputFormat {
    /// The usual file extension, from the format table: `jpg`, `png`, `webp`, `avif`, `tif`.
    public var fileExtension: String {
        guard let row = ImageFormat.row(writing: self) else {
            fatalError("no row of ImageFormat.registered writes \(rawValue)")  // a programmer's error: FormatTableTests checks every one
        }
        return row.fileExtension
    }
}
