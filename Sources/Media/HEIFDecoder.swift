import System
import Vips

/// HEIF and AVIF through libvips' heifload (libheif), which reads the primary image, or with `thumbnail=TRUE` the
/// file's embedded thumbnail (an iPhone's 240×320 or 320×240).
///
/// A rendering starts from the thumbnail when it is at least the rendition's size on the side the fit needs (and
/// `embedded-thumbnail: use`, the default); otherwise from the primary image, as libvips' `vips_thumbnail` would
/// (whose own choice of the thumbnail in 8.14 needs it strictly larger than the box, so a 240×320 thumbnail never
/// served a 240×240 cover: a full HEVC decode of 12 MP instead).
public struct HEIFDecoder: ImageDecoder {
    public init() {}

    public func open(_ bytes: FileBytes, sequential: Bool, failOn: FailOn, shrink: Int) throws -> Image {
        try Image.open(bytes, sequential: sequential, failOn: failOn, jpegShrink: shrink)
    }

    /// libvips' own decode of every pixel of the primary image.
    public func decodeEveryPixel(_ bytes: FileBytes, failOn: FailOn) throws {
        try Image.decodeEveryPixel(of: bytes, failOn: failOn)
    }

    public func source(_ bytes: FileBytes, for request: DecodeRequest, failOn: FailOn) throws -> ImageSource {
        guard request.policy.embeddedThumbnail, let needed = request.atLeast else { return .original(bytes) }
        // Without a thumbnail item, heifload's `thumbnail` loads the primary image: the same size as the original.
        let primary = try Image.open(bytes, sequential: true, failOn: failOn)
        let thumbnail = try Image.open(bytes, sequential: false, failOn: failOn, loaderOptions: ["thumbnail=TRUE"])
        guard thumbnail.width < primary.width || thumbnail.height < primary.height else { return .original(bytes) }
        // Both are upright as libheif gives them (its `irot`/`imir` transforms applied; the EXIF orientation then
        // says nothing more, and libvips 8.14 leaves it at 1).
        let (w, h) = thumbnail.orientation >= 5 ? (thumbnail.height, thumbnail.width) : (thumbnail.width, thumbnail.height)
        guard needed.isMet(width: w, height: h) else { return .original(bytes) }
        // The thumbnail as opened here, not its bytes again: each heifload reads the file's whole box structure
        // (libheif 1.15 zero-fills about twice the file's size doing so), and a rendering opens its source twice.
        return ImageSource(.decoded(thumbnail), provenance: "from the embedded thumbnail (\(w)×\(h))")
    }
}
