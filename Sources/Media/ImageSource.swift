import System
import Vips

/// Which of an original's own images a rendering may start from, set by the rendering stages' options
/// (`raw: preview | decode`, `embedded-thumbnail: use | ignore`, `poster: auto | 25% | 3s`).
public struct SourcePolicy: Sendable, Hashable {
    /// A camera RAW's embedded JPEG preview, when it is large enough; else libraw decodes the sensor data.
    public var rawPreview: Bool
    /// A HEIF/AVIF file's embedded thumbnail, when it is large enough; else its primary image.
    public var embeddedThumbnail: Bool
    /// A video's poster frame: the search, or a time (`PosterTime`).
    public var poster: PosterTime

    public init(rawPreview: Bool = true, embeddedThumbnail: Bool = true, poster: PosterTime = .auto) {
        self.rawPreview = rawPreview
        self.embeddedThumbnail = embeddedThumbnail
        self.poster = poster
    }

    public static let standard = SourcePolicy()
}

/// The smallest image a rendering needs, upright: an embedded preview or thumbnail serves when it is at least this
/// large on the side the fit needs (`both` for `cover` and `fill`, which fill the box; either for `contain` and a
/// `max-size`, which fit inside it), so the rendering never enlarges it.
public struct MinimumSize: Sendable, Hashable {
    public var width: Int
    public var height: Int
    public var both: Bool

    public init(width: Int, height: Int, both: Bool) {
        self.width = width
        self.height = height
        self.both = both
    }

    /// A thumbnail's box.
    public init(_ geometry: ThumbnailGeometry) {
        self.init(width: geometry.width, height: geometry.height, both: geometry.crop != .none || geometry.sizing == .force)
    }

    /// A long edge of `edge` pixels (an export's `max-size`).
    public init(longEdge edge: Int) { self.init(width: edge, height: edge, both: false) }

    /// Whether an upright image of `width`×`height` is at least this large.
    public func isMet(width w: Int, height h: Int) -> Bool {
        both ? (w >= width && h >= height) : (w >= width || h >= height)
    }
}

/// What a format's decoder is asked for: an image at least `atLeast` (nil: full size), from the sources `policy`
/// allows.
public struct DecodeRequest: Sendable, Hashable {
    public var atLeast: MinimumSize?
    public var policy: SourcePolicy

    public init(atLeast: MinimumSize?, policy: SourcePolicy = .standard) {
        self.atLeast = atLeast
        self.policy = policy
    }
}

/// The image a rendering starts from, as a decoder chose it (`ImageDecoder.source`): the original's own bytes, an
/// embedded image's bytes (a RAW's JPEG preview), or pixels already decoded (libraw's), with what it is in words.
///
/// Bytes are loaded by libvips, so they shrink on load (a JPEG's DCT scaling); `orientation` replaces the loaded
/// image's own (a RAW's preview is turned by the RAW's orientation, not by the preview's EXIF).
public struct ImageSource: @unchecked Sendable {
    // @unchecked: `Image` is immutable and shareable (libvips images are), and `FileBytes` is read-only.
    public enum Pixels {
        /// Bytes libvips loads, with the loader's own options (`thumbnail=TRUE`).
        case encoded(FileBytes, loaderOptions: [String])
        /// Pixels in memory.
        case decoded(Image)
        /// Pixels a library decodes when asked (`resolved()`), holding about `pixels` of the run's memory budget
        /// (its unit: 3 bytes) while it does: a rendering reserves them first (libraw's decode of a RAW).
        case deferred(pixels: Int, decode: @Sendable () throws -> Decoded)
    }

    /// What a deferred decode made: the image, and what it is when only the decode can say (which frame of a
    /// video it chose); nil keeps the source's `provenance`.
    public struct Decoded {
        public var image: Image
        public var provenance: String?

        public init(image: Image, provenance: String? = nil) {
            self.image = image
            self.provenance = provenance
        }
    }

    public var pixels: Pixels
    /// The EXIF orientation to give the loaded image, instead of its own; nil keeps its own.
    public var orientation: Int?
    /// What the image is, for the step's message ("from the embedded preview (1024×683)"); nil for the original
    /// itself as libvips reads it.
    public var provenance: String?

    public init(_ pixels: Pixels, orientation: Int? = nil, provenance: String? = nil) {
        self.pixels = pixels
        self.orientation = orientation
        self.provenance = provenance
    }

    /// The original's bytes, loaded by libvips as they are.
    public static func original(_ bytes: FileBytes) -> ImageSource { ImageSource(.encoded(bytes, loaderOptions: [])) }

    /// Whether this is the original's bytes as libvips loads them, with nothing chosen or replaced.
    public var isOriginal: Bool {
        if case .encoded(_, let options) = pixels, options.isEmpty, orientation == nil { return true }
        return false
    }

    /// The bytes libvips loads, when there are some.
    public var bytes: FileBytes? {
        if case .encoded(let bytes, _) = pixels { return bytes }
        return nil
    }

    /// What a deferred decode holds of the memory budget while it runs (`Pixels.deferred`); nil for the others,
    /// whose header says it (`LookRenderer.reservation(for:wholeImage:)`).
    public var deferredPixels: Int? {
        if case .deferred(let pixels, _) = pixels { return pixels }
        return nil
    }

    /// The source with a deferred decode done (call it inside the budget's reservation); the others as they are.
    public func resolved() throws -> ImageSource {
        guard case .deferred(_, let decode) = pixels else { return self }
        let decoded = try decode()
        return ImageSource(.decoded(decoded.image), orientation: orientation, provenance: decoded.provenance ?? provenance)
    }

    /// Opens the image: the header at once, pixels when a pipeline asks for them; `shrink` (2, 4 or 8) only for
    /// bytes libvips loads with `jpegload`. A deferred decode is done now.
    public func open(sequential: Bool, failOn: FailOn, shrink: Int = 1) throws -> Image {
        let image: Image
        switch pixels {
        case .encoded(let bytes, let options):
            image = try Image.open(bytes, sequential: sequential, failOn: failOn, jpegShrink: shrink, loaderOptions: options)
        case .decoded(let decoded):
            image = decoded
        case .deferred(_, let decode):
            image = try decode().image
        }
        guard let orientation, orientation != image.orientation else { return image }
        return try image.setting("orientation", to: orientation)
    }
}
