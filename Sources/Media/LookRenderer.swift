import System
import Vips
import Core

/// Turns a photo's original bytes and its look (a recipe) into one libvips pipeline, and pixels into file bytes.
///
/// Every rendering starts from the original, never from an earlier rendition, so nothing is compressed twice.
/// Pixels are upright (EXIF orientation applied), colour-managed to sRGB, then filtered.
public enum LookRenderer {
    /// An encoded rendering: the file's bytes and the pixel size they hold.
    public struct Rendered: Sendable {
        public var width: Int
        public var height: Int
        public var bytes: [UInt8]
        /// What it was rendered from when not the original itself as libvips reads it (`ImageSource.provenance`):
        /// "from the embedded preview (1024×683)", "decoded by libraw 0.20.2".
        public var source: String?

        public init(width: Int, height: Int, bytes: [UInt8], source: String? = nil) {
            self.width = width
            self.height = height
            self.bytes = bytes
            self.source = source
        }
    }

    /// A thumbnail of the look, encoded: one pipeline from the original's bytes to the file's bytes.
    /// - Parameter reserve: reserves decoded pixels from the run's memory budget around the rendering.
    public static func renderThumbnail(of bytes: FileBytes, recipe: Recipe, geometry: ThumbnailGeometry, format: OutputFormat,
                                       quality: Int, failOn: FailOn, reserve: Reserve = unreserved,
                                       policy: SourcePolicy = .standard) throws -> Rendered {
        try renderThumbnails(of: bytes, recipe: recipe, geometry: geometry, format: format, quality: quality, failOn: failOn,
                             reserve: reserve, withOriginal: false, policy: policy).look
    }

    /// A thumbnail of the look and, with `withOriginal`, one of the original look in the same geometry, from one
    /// decode (`encodedThumbnails`). The original look's is the report's "before" (docs/report.md). The decoder
    /// chooses what the thumbnail starts from among what `policy` allows (`ImageFormat.source`: an embedded preview
    /// or thumbnail at least the box's size), and each `Rendered` says which (`source`).
    public static func renderThumbnails(of bytes: FileBytes, recipe: Recipe, geometry: ThumbnailGeometry, format: OutputFormat,
                                        quality: Int, failOn: FailOn, reserve: Reserve = unreserved,
                                        withOriginal: Bool, policy: SourcePolicy = .standard) throws -> (look: Rendered, original: Rendered?) {
        try guarded(failOn: failOn, original: bytes) {
            let chosen = try ImageFormat.source(bytes, for: DecodeRequest(atLeast: MinimumSize(geometry), policy: policy), failOn: failOn)
            let early = chosen.deferredPixels == nil ? try chosen.open(sequential: true, failOn: failOn) : nil
            var rendered: (look: Rendered, original: Rendered?)?
            var provenance = chosen.provenance
            // Progressive JPEGs and interlaced PNGs hold whole-image buffers even when they shrink on load; a library's
            // own decode (libraw's, FFmpeg's) is done inside the reservation of what it holds.
            try reserve(early.map { reservation(for: $0, wholeImage: false) } ?? chosen.deferredPixels!) {
                let source = try chosen.resolved()
                provenance = source.provenance
                let header = try early ?? source.open(sequential: true, failOn: failOn)
                // A JPEG original is decoded once, by libjpeg, which also checks it to its end (`decodedOnce`); the
                // others are checked first when they are JPEGs (`checkData`), then loaded by libvips.
                let once = try decodedOnce(of: source, header: header, geometry: geometry, failOn: failOn)
                if once == nil { try checkData(of: source, header: header, failOn: failOn) }
                func made() throws -> (look: Rendered, original: Rendered?) {
                    let small = try thumbnail(of: source, header: header, decoded: once?.image, recipe: .original,
                                              geometry: geometry, failOn: failOn)
                    return try encodedThumbnails(of: small, recipe: recipe, format: format, quality: quality, withOriginal: withOriginal)
                }
                rendered = try once.map { try $0.verified(made) } ?? made()
            }
            rendered!.look.source = provenance
            rendered!.original?.source = provenance
            return rendered!
        }
    }

    /// The look's thumbnail from the original look's small image (upright, sRGB), encoded, and with `withOriginal`
    /// the small image itself encoded too. It is then held in memory first, so that it is computed once; each file
    /// is byte for byte what its look gives alone (`ReportPreviewTests`), since the recipe is applied to the same
    /// pixels either way.
    static func encodedThumbnails(of small: Image, recipe: Recipe, format: OutputFormat, quality: Int,
                                  withOriginal: Bool) throws -> (look: Rendered, original: Rendered?) {
        let small = withOriginal ? try small.inMemory() : small
        let image = recipe.isEmpty ? small : try recipe.apply(to: small)
        func encoded(_ image: Image) throws -> Rendered {
            Rendered(width: image.width, height: image.height, bytes: try encode(image, format: format, quality: quality, metadata: .strip))
        }
        return (try encoded(image), withOriginal ? try encoded(small) : nil)
    }

    /// The look at full size (or `maxSize`), encoded with a metadata policy.
    /// The decoder chooses what it starts from among what `policy` allows (an embedded preview at least `maxSize`).
    public static func renderFullSize(of bytes: FileBytes, recipe: Recipe, maxSize: Int?, format: OutputFormat, quality: Int,
                                      metadata: MetadataPolicy, failOn: FailOn, reserve: Reserve = unreserved,
                                      policy: SourcePolicy = .standard) throws -> Rendered {
        try guarded(failOn: failOn, original: bytes) {
            let request = DecodeRequest(atLeast: maxSize.map { MinimumSize(longEdge: $0) }, policy: policy)
            let chosen = try ImageFormat.source(bytes, for: request, failOn: failOn)
            let early = chosen.deferredPixels == nil ? try chosen.open(sequential: true, failOn: failOn) : nil
            // A rotation reads the whole image into memory; progressive and interlaced files hold their decoder's; a
            // library's own decode (libraw's, upright already) is done inside the reservation of what it holds.
            var rendered: Rendered?
            try reserve(early.map { reservation(for: $0, wholeImage: $0.orientation != 1) } ?? chosen.deferredPixels!) {
                let source = try chosen.resolved()
                let header = try early ?? source.open(sequential: true, failOn: failOn)
                let once = try decodedOnce(of: source, header: header, maxSize: maxSize, failOn: failOn)
                if once == nil { try checkData(of: source, header: header, failOn: failOn) }
                func made() throws -> Rendered {
                    let image = try fullSize(of: source, header: header, decoded: once?.image, recipe: recipe, maxSize: maxSize, failOn: failOn)
                    return Rendered(width: image.width, height: image.height,
                                    bytes: try encode(image, format: format, quality: quality, metadata: metadata),
                                    source: source.provenance)
                }
                rendered = try once.map { try $0.verified(made) } ?? made()
            }
            return rendered!
        }
    }

    /// Runs `body` with a reservation of decoded pixels (the scheduler's memory budget).
    public typealias Reserve = @Sendable (_ pixels: Int, _ body: () throws -> Void) throws -> Void
    public static let unreserved: Reserve = { _, body in try body() }

    /// Runs a rendering whose images all end inside `body` so that its failure and warnings are its own (see
    /// `Attribution`), and fails it when libvips warned of damaged data that its `fail_on` let through.
    ///
    /// When the rendering is of a photo's `original`, a failure that is the original's damage is thrown as
    /// `DamagedImage` (its reason the sentence the step has always given), and nothing else is: the damage warnings
    /// above, libjpeg's own check of a JPEG original (`checkData`, `DecoderDamage`), or a libvips failure after which
    /// the original's pixels alone do not decode either (`Image.decodeEveryPixel`, attributed like the rendering, so
    /// the answer is this photo's even under load). An encoder's failure, a full disk, a shortage of memory, or a
    /// rendering of something else (a thumbnail re-encoded for an export) is never damage.
    package static func guarded<T>(failOn: FailOn, original: FileBytes? = nil, _ body: () throws -> T) throws -> T {
        let (result, alone): (T, Attribution.Alone?)
        do {
            (result, alone) = try Attribution.attributed(body)
        } catch let damage as DecoderDamage {
            throw DamagedImage(reported(damage.words))
        } catch let error as VipsError {
            guard let original, !error.isMemoryShortage else { throw error }
            do {
                _ = try Attribution.attributed { try ImageFormat.decodeEveryPixel(of: original, failOn: failOn) }
            } catch let damage as DecoderDamage {
                throw DamagedImage(reported(damage.words))
            } catch let decoding as VipsError where !decoding.isMemoryShortage {
                // Said as damage, not as the operation that met it (libvips decodes lazily, so a truncated JPEG
                // fails inside `jpegsave`, which reads as a disk problem); libvips' own words follow.
                throw DamagedImage("damaged image data: the original's pixels cannot be decoded (\(ErrorReason.of(error))\(explained(error)))")
            }
            throw error
        }
        let damage = (alone?.warnings ?? []).filter(Attribution.isDamage)
        if failOn == .warning, !damage.isEmpty {
            // The decoder's own words when they reached this thread, else libvips' summary ("read gave 1 warnings").
            let words = damage.first { !$0.hasPrefix("read gave") } ?? damage[0]
            let reason = reported(words)
            throw original == nil ? StageError(reason) as any Error : DamagedImage(reason)
        }
        return result
    }

    /// The reason of a photo whose decoder reported damage, with its words.
    static func reported(_ words: String) -> String {
        "damaged image data: the decoder reported \"\(words)\" (set on-damaged: warn on the import to accept such photos)"
    }

    /// What a decoder's terse words mean, when libvips passes them on without saying: libvips' PNG reader tells
    /// libpng "not enough data" when the file ends before the pixels do.
    package static func explained(_ error: VipsError) -> String {
        error.message.contains("not enough data") ? ": the file ends before its image data does (truncated)" : ""
    }

    /// libjpeg's own check of a JPEG original (`JPEGCheck`) when damage fails the photo: libvips' loader never reads
    /// past the last scanline, so a scan whose damage decodes as other pixels, or a file with no end-of-image marker,
    /// would pass. Run first, inside the rendering's reservation (a progressive JPEG's check holds its coefficients),
    /// so a damaged JPEG's reason is always libjpeg's first warning, as djpeg prints it.
    static func checkData(of source: ImageSource, header: Image, failOn: FailOn) throws {
        guard failOn == .warning, JPEGCheck.applies(to: header), let bytes = source.bytes else { return }
        try JPEGCheck.check(bytes)
    }

    /// A JPEG original's decode for a thumbnail when damage fails the photo: libjpeg's own (`JPEGDecode`), at the
    /// shrink `jpegload` would be asked for, which makes `jpegload`'s pixels and checks the whole file as
    /// `checkData` does, in one decode instead of two. Nil for anything else (other formats, CMYK, arithmetic-coded,
    /// an embedded image, `on-damaged: warn`): those take `checkData` and libvips' loader.
    static func decodedOnce(of source: ImageSource, header: Image, geometry: ThumbnailGeometry, failOn: FailOn) throws -> JPEGDecode? {
        try decodedOnce(of: source, header: header, shrink: jpegShrink(of: header, for: geometry), failOn: failOn)
    }

    /// The same for the look at full size or bounded to `maxSize` (`fullSize`), at its shrink, for an upright
    /// original only: a rotation reads the pixels out of order, which `jpegload` does from a random-access load,
    /// so a turned photo stays on that path.
    static func decodedOnce(of source: ImageSource, header: Image, maxSize: Int?, failOn: FailOn) throws -> JPEGDecode? {
        guard header.orientation == 1 else { return nil }
        return try decodedOnce(of: source, header: header, shrink: fullSizeShrink(of: header, maxSize: maxSize), failOn: failOn)
    }

    private static func decodedOnce(of source: ImageSource, header: Image, shrink: Int, failOn: FailOn) throws -> JPEGDecode? {
        guard failOn == .warning, source.isOriginal, let bytes = source.bytes, JPEGCheck.applies(to: header), !header.isCMYK
        else { return nil }
        return try JPEGDecode.open(bytes, shrink: shrink, header: header)
    }

    /// A thumbnail of the look: shrink-on-load from the original, then colour management and the recipe on the
    /// small image.
    ///
    /// The colour transform is the full-size path's (`srgb8(colourManaged: true)`: lcms, embedded profile to sRGB,
    /// relative intent), so a thumbnail and an export of the same photo have the same colours.
    /// An original libvips loads as it is goes through `vips_thumbnail_buffer` (its own shrink-on-load); any other
    /// source (an embedded image, an orientation of the RAW's own, decoded pixels) loads shrunk here first.
    /// `decoded` is the JPEG's own decode at `jpegShrink(of:for:)` (`decodedOnce`), used instead of `jpegload`'s.
    public static func thumbnail(of source: ImageSource, header: Image? = nil, decoded: Image? = nil, recipe: Recipe,
                                 geometry: ThumbnailGeometry, failOn: FailOn) throws -> Image {
        let header = try header ?? source.open(sequential: true, failOn: failOn)
        let small = if let bytes = source.bytes, source.isOriginal, !header.isCMYK, header.loader?.hasPrefix("jpegload") != true {
            try Image.thumbnail(bytes, header: header, geometry: geometry, failOn: failOn, toSRGB: false)
        } else {
            try shrinkOnLoadThumbnail(of: source, header: header, decoded: decoded, geometry: geometry, failOn: failOn)
        }
        let pixels = try small.srgb8(colourManaged: true)
        return recipe.isEmpty ? pixels : try recipe.apply(to: pixels)
    }

    /// JPEG and CMYK thumbnails load shrunk themselves, then `vips_thumbnail_image` does the rest (Lanczos3, crop,
    /// EXIF orientation), for two reasons found on libvips 8.14:
    ///
    /// - `vips_thumbnail_buffer` does not pass `fail_on` on to its shrunk reload, so a corrupt JPEG (libjpeg's
    ///   "Corrupt JPEG data" warnings) made a thumbnail of garbage instead of failing. Loading here passes it.
    /// - `vips_thumbnail` converts CMYK itself, through its own XYZ rather than profile to profile, and gave colours
    ///   up to 15 levels away from the full-size rendering of the same file (sRGB 60, 90, 140 printed to CMYK came
    ///   back as 45, 90, 138 in the thumbnail and 60, 89, 139 at full size). Here CMYK goes through lcms first.
    ///
    /// The shrink factor is `vips_thumbnail`'s own (libjpeg DCT scaling by 2, 4 or 8, leaving at least a factor of
    /// two for the final Lanczos3).
    private static func shrinkOnLoadThumbnail(of source: ImageSource, header: Image, decoded: Image?, geometry: ThumbnailGeometry,
                                              failOn: FailOn) throws -> Image {
        let image = try decoded ?? source.open(sequential: true, failOn: failOn, shrink: jpegShrink(of: header, for: geometry))
        return try (header.isCMYK ? image.srgb8(colourManaged: true) : image).thumbnail(geometry: geometry)
    }

    /// The DCT scaling a thumbnail of `header` loads with: `vips_thumbnail`'s own factor (2, 4 or 8, leaving at
    /// least two for the Lanczos3 that follows) for a JPEG, 1 for anything else.
    static func jpegShrink(of header: Image, for geometry: ThumbnailGeometry) -> Int {
        let (w, h) = header.orientation >= 5 ? (header.height, header.width) : (header.width, header.height)
        let factor = geometry.crop == .none && geometry.sizing != .force
            ? max(Double(w) / Double(geometry.width), Double(h) / Double(geometry.height))
            : min(Double(w) / Double(geometry.width), Double(h) / Double(geometry.height))
        return header.loader?.hasPrefix("jpegload") == true
            ? (factor >= 16 ? 8 : factor >= 8 ? 4 : factor >= 4 ? 2 : 1) : 1
    }

    /// The look at full size, or with its long edge reduced to `maxSize` (never enlarged).
    /// `decoded` is an upright JPEG's own decode at `fullSizeShrink(of:maxSize:)` (`decodedOnce`), used instead of
    /// `jpegload`'s.
    public static func fullSize(of source: ImageSource, header: Image? = nil, decoded: Image? = nil, recipe: Recipe, maxSize: Int?,
                                failOn: FailOn) throws -> Image {
        let header = try header ?? source.open(sequential: true, failOn: failOn)
        let shrink = fullSizeShrink(of: header, maxSize: maxSize)
        // Rotations and vertical flips read the image out of order, which a sequential load cannot do.
        let image = try decoded ?? (header.orientation == 1 && shrink == 1
            ? header : source.open(sequential: header.orientation == 1, failOn: failOn, shrink: shrink))
        var upright = try image.autorotated()
        // Reduced before the colour transform, as a thumbnail is: lcms then converts the pixels that are kept, not
        // every decoded one (a 5400×3600 photo bound for 1440 px decodes at full size: 19 MP through lcms before).
        if let maxSize, max(upright.width, upright.height) > maxSize {
            upright = try upright.resized(by: Double(maxSize) / Double(max(upright.width, upright.height)))
        }
        let pixels = try upright.srgb8(colourManaged: true)
        return recipe.isEmpty ? pixels : try recipe.apply(to: pixels)
    }

    /// The DCT scaling the look at full size loads with: a JPEG bound for `maxSize` decodes smaller, keeping at
    /// least twice the target for Lanczos3; 1 for anything else.
    static func fullSizeShrink(of header: Image, maxSize: Int?) -> Int {
        let long = max(header.width, header.height)
        return maxSize.map { limit in
            header.loader?.hasPrefix("jpegload") == true ? [8, 4, 2].first { long / $0 >= 2 * limit } ?? 1 : 1
        } ?? 1
    }

    /// Encodes pixels for a file, applying the metadata policy.
    public static func encode(_ image: Image, format: OutputFormat, quality: Int, metadata: MetadataPolicy) throws -> [UInt8] {
        var image = image
        if format == .jpeg { image = try image.flattenedOnWhite() }
        switch metadata {
        case .strip:
            return try image.encoded(as: format, quality: quality, strip: true)
        case .keep:
            break
        case .stripGPS:
            // libvips rebuilds the EXIF block from the exif-ifd* fields on save; XMP can carry GPS too, so it goes.
            image = try image.removingFields { $0.hasPrefix("exif-ifd3-") || $0 == "xmp-data" }
        case .keepICC:
            image = try image.removingFields { $0.hasPrefix("exif-") || $0 == "xmp-data" || $0 == "iptc-data" }
        }
        return try image.encoded(as: format, quality: quality, strip: false)
    }
}

/// What metadata an exported file keeps.
public enum MetadataPolicy: String, Sendable, CaseIterable {
    /// Keep EXIF, ICC and the rest, but remove GPS (EXIF GPS fields and XMP).
    case stripGPS = "strip-gps"
    /// Remove all metadata.
    case strip
    /// Keep everything, GPS included.
    case keep
    /// Keep only the ICC profile.
    case keepICC = "keep-icc"
}
