import System
import Vips

extension LookRenderer {
    /// The original look bounded to `maxSize`, decoded once and held in memory, for several outputs of one photo to
    /// derive from (`SharedDecode`): exactly `fullSize(of:recipe: .original, maxSize:)`'s pixels (JPEG shrink-on-load,
    /// EXIF orientation applied, sRGB, Lanczos3 down to `maxSize`), with the original's metadata.
    ///
    /// It is a rendering of the original like the others: damage is `DamagedImage`, attributed to this photo under
    /// load (`guarded(failOn:original:)`), since every pixel is decoded inside it; the budget reserves what
    /// `renderFullSize` reserves while it decodes. What it returns is at most `SharedDecode.longEdgeCap` on its long
    /// edge, so it is held outside the reservation.
    /// What it was decoded from comes back beside it (`ImageSource.provenance`), for the outputs derived from it.
    package static func sharedOriginal(of bytes: FileBytes, maxSize: Int, failOn: FailOn, reserve: Reserve,
                                       policy: SourcePolicy = .standard) throws -> (image: Image, source: String?) {
        try guarded(failOn: failOn, original: bytes) {
            let request = DecodeRequest(atLeast: MinimumSize(longEdge: maxSize), policy: policy)
            let chosen = try ImageFormat.source(bytes, for: request, failOn: failOn)
            let early = chosen.deferredPixels == nil ? try chosen.open(sequential: true, failOn: failOn) : nil
            var held: Image?
            var provenance = chosen.provenance
            try reserve(early.map { reservation(for: $0, wholeImage: $0.orientation != 1) } ?? chosen.deferredPixels!) {
                let source = try chosen.resolved()
                provenance = source.provenance
                let header = try early ?? source.open(sequential: true, failOn: failOn)
                let once = try decodedOnce(of: source, header: header, maxSize: maxSize, failOn: failOn)
                if once == nil { try checkData(of: source, header: header, failOn: failOn) }
                func made() throws -> Image {
                    try fullSize(of: source, header: header, decoded: once?.image, recipe: .original, maxSize: maxSize, failOn: failOn).inMemory()
                }
                held = try once.map { try $0.verified(made) } ?? made()
            }
            return (held!, provenance)
        }
    }

    /// A thumbnail of the look derived from a shared decode, and with `withOriginal` the original look's too: the
    /// thumbnail's geometry (Lanczos3, crop), then the recipe on the small image (`encodedThumbnails`), as
    /// `renderThumbnails(of:…)` does after its own shrink-on-load. The shared pixels are upright and sRGB already,
    /// so neither is applied again.
    package static func renderThumbnails(fromShared shared: Image, recipe: Recipe, geometry: ThumbnailGeometry, format: OutputFormat,
                                 quality: Int, failOn: FailOn, withOriginal: Bool) throws -> (look: Rendered, original: Rendered?) {
        try guarded(failOn: failOn) {
            let small = try shared.thumbnail(geometry: geometry).srgb8(colourManaged: false)
            return try encodedThumbnails(of: small, recipe: recipe, format: format, quality: quality, withOriginal: withOriginal)
        }
    }

    /// The look bounded to `maxSize` derived from a shared decode at least that large: resized further only when
    /// `maxSize` is smaller than the shared image, then the recipe and the metadata policy, as `renderFullSize`.
    package static func renderFullSize(fromShared shared: Image, recipe: Recipe, maxSize: Int, format: OutputFormat, quality: Int,
                               metadata: MetadataPolicy, failOn: FailOn) throws -> Rendered {
        try guarded(failOn: failOn) {
            var pixels = shared
            if max(pixels.width, pixels.height) > maxSize {
                pixels = try pixels.resized(by: Double(maxSize) / Double(max(pixels.width, pixels.height)))
            }
            let image = recipe.isEmpty ? pixels : try recipe.apply(to: pixels)
            return Rendered(width: image.width, height: image.height,
                            bytes: try encode(image, format: format, quality: quality, metadata: metadata))
        }
    }

    /// Whether a thumbnail in `geometry` can be derived from an image of this size without losing what its own
    /// shrink-on-load keeps: the thumbnail's resize from it must shrink by at least 2 (the margin `fullSize` and
    /// libvips' thumbnail keep for Lanczos3). A photo smaller than that renders its thumbnail alone.
    package static func sharedServes(width: Int, height: Int, geometry: ThumbnailGeometry) -> Bool {
        let (w, h) = (Double(width), Double(height))
        let (gw, gh) = (Double(geometry.width), Double(geometry.height))
        switch (geometry.crop, geometry.sizing) {
        case (_, .force): return 2 * gw <= w && 2 * gh <= h
        case (.none, _): return 2 * min(gw / w, gh / h) <= 1
        default: return 2 * max(gw / w, gh / h) <= 1
        }
    }
}
