import System
import Vips

/// How album turns a format's bytes into an image: the one place an original is opened (`ImageFormat.open`,
/// `ImageFormat.source`, `ImageFormat.header`).
///
/// Each row of the format table names its decoder: libvips' loaders (`VipsLoader`), libraw for camera RAWs
/// (`RawDecoder`). A rendering asks its decoder for an image at least as large as it needs (`source(_:for:failOn:)`):
/// a decoder with a smaller image of its own (a RAW's embedded preview, a HEIF's thumbnail, a video's poster frame)
/// answers with it, in a file of its own, named in its formats' rows.
public protocol ImageDecoder: Sendable {
    /// Opens `bytes` at full size: the header at once, pixels when a pipeline asks for them.
    /// - Parameters:
    ///   - sequential: pixels are read top to bottom once (streaming).
    ///   - failOn: how much damage the decoder tolerates before it fails.
    ///   - shrink: 2, 4 or 8 to decode at that fraction of the size (a JPEG's DCT scaling, which album asks only of
    ///     a JPEG); 1 for full size.
    func open(_ bytes: FileBytes, sequential: Bool, failOn: FailOn, shrink: Int) throws -> Image

    /// The image a rendering of at least `request.atLeast` starts from (the whole original when nil), among the
    /// sources `request.policy` allows. The default is the image `open` gives (libvips' loaders: the original's
    /// bytes, which libvips loads shrinking on load).
    func source(_ bytes: FileBytes, for request: DecodeRequest, failOn: FailOn) throws -> ImageSource

    /// What import reads, with no pixel decoded: the size, orientation and metadata.
    func header(_ bytes: FileBytes, failOn: FailOn) throws -> PhotoHeader

    /// Decodes every pixel and keeps none: whether the original's pixels decode at all (a rendering that failed asks,
    /// to tell damage from every other failure; `--retry-damaged` asks before it clears damage).
    func decodeEveryPixel(_ bytes: FileBytes, failOn: FailOn) throws
}

extension ImageDecoder {
    public func source(_ bytes: FileBytes, for request: DecodeRequest, failOn: FailOn) throws -> ImageSource {
        ImageSource(.decoded(try open(bytes, sequential: false, failOn: failOn, shrink: 1)))
    }

    public func header(_ bytes: FileBytes, failOn: FailOn) throws -> PhotoHeader {
        PhotoHeader(image: try open(bytes, sequential: true, failOn: failOn, shrink: 1))
    }

    public func decodeEveryPixel(_ bytes: FileBytes, failOn: FailOn) throws {
        _ = try open(bytes, sequential: true, failOn: failOn, shrink: 1).inMemory()
    }
}

/// What import reads of a photo before any pixel is decoded: its stored size, its metadata, and the size of each
/// metadata block (import refuses absurd ones).
public struct PhotoHeader: Sendable {
    public var storedWidth: Int
    public var storedHeight: Int
    public var metadata: PhotoMetadata
    public var blockSizes: [String: Int]

    public init(storedWidth: Int, storedHeight: Int, metadata: PhotoMetadata, blockSizes: [String: Int] = [:]) {
        self.storedWidth = storedWidth
        self.storedHeight = storedHeight
        self.metadata = metadata
        self.blockSizes = blockSizes
    }

    /// An image's header, as libvips opened it.
    public init(image: Image) {
        let blocks = ["exif-data", "xmp-data", "icc-profile-data", "iptc-data"]
        self.init(storedWidth: image.width, storedHeight: image.height, metadata: PhotoMetadata(image: image),
                  blockSizes: Dictionary(uniqueKeysWithValues: blocks.map { ($0, image.blobSize($0)) }))
    }
}

/// libvips' own loaders, chosen by libvips from the bytes (`vips_image_new_from_buffer`).
public struct VipsLoader: ImageDecoder {
    public init() {}

    public func open(_ bytes: FileBytes, sequential: Bool, failOn: FailOn, shrink: Int) throws -> Image {
        try Image.open(bytes, sequential: sequential, failOn: failOn, jpegShrink: shrink)
    }

    /// The original's bytes: libvips loads them, shrinking on load (`vips_thumbnail_buffer`, DCT scaling).
    public func source(_ bytes: FileBytes, for request: DecodeRequest, failOn: FailOn) throws -> ImageSource {
        .original(bytes)
    }

    /// libvips' own decode of every pixel, with libjpeg's check of a JPEG (`Image.decodeEveryPixel`).
    public func decodeEveryPixel(_ bytes: FileBytes, failOn: FailOn) throws {
        try Image.decodeEveryPixel(of: bytes, failOn: failOn)
    }
}
