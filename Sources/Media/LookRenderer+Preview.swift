import System
import Vips

extension LookRenderer {
    /// A small image's pixels held in memory, 8-bit sRGB, 3 bands (4 with alpha): what a preview is before it is
    /// encoded or laid out, and safe to hand between threads (it holds no libvips image).
    package struct PreviewPixels: Sendable {
        package var width: Int
        package var height: Int
        package var bands: Int
        package var pixels: [UInt8]

        /// The pixels as a libvips image again.
        package func image() throws -> Image { try Image.fromPixels(pixels, width: width, height: height, bands: bands) }
    }

    /// A preview's pipeline, not yet computed: its pixels are made once, by what finishes it (`encoded(quality:)`
    /// computes them inside the JPEG encoder, `held()` into memory), so a preview the report inlines is decoded,
    /// shrunk and encoded in one pass, never copied out of libvips and back. Made and finished on one thread.
    package struct PreviewImage {
        let image: Image
        /// What the pixels come from keeps this alive: a rendition's bytes (the pipeline decodes them lazily).
        let bytes: FileBytes?

        /// Pixels already in memory (a preview rendered from the original).
        package init(_ pixels: PreviewPixels) throws {
            image = try pixels.image()
            bytes = nil
        }

        init(_ image: Image, bytes: FileBytes?) {
            self.image = image
            self.bytes = bytes
        }

        /// The preview as the report inlines it: JPEG at `quality`, no metadata, encoded from the pipeline itself.
        package func encoded(quality: Int) throws -> [UInt8] {
            try guarded(failOn: .truncated) {
                try encode(image, format: .jpeg, quality: quality, metadata: .strip)
            }
        }

        /// The pixels, computed into memory (a contact sheet's cell).
        package func held() throws -> PreviewPixels {
            try guarded(failOn: .truncated) { try LookRenderer.held(image) }
        }
    }

    /// A preview shrunk from a rendition's file (a thumbnail, a filtered image, an export) into `geometry`.
    ///
    /// A rendition's pixels are already what the look needs (upright, converted to sRGB, filtered: this renderer
    /// made them), so nothing is applied again: shrink-on-load, Lanczos3, no colour transform. The caller has
    /// checked that the bytes are the recorded file's.
    /// The pipeline is returned for the caller to finish: its header is read here, its pixels are decoded when it
    /// is finished.
    ///
    /// A JPEG less than twice the box's size (a 240-pixel thumbnail in the page's 200-pixel box) is resized from
    /// the image its header was read from: `vips_thumbnail_buffer` would load it at full size too (its shrink-on-load
    /// starts at a factor of 2), so the pixels are the same, without libvips finding the loader and reading the
    /// header twice more.
    package static func pipeline(ofRendition bytes: FileBytes, geometry: ThumbnailGeometry) throws -> PreviewImage {
        try guarded(failOn: .truncated) {
            let header = try Image.open(bytes, sequential: true, failOn: .truncated)
            let factor = max(Double(header.width) / Double(max(1, geometry.width)), Double(header.height) / Double(max(1, geometry.height)))
            let shrunk = header.loader?.hasPrefix("jpegload") == true && factor < 2
                ? try header.thumbnail(geometry: geometry)
                : try Image.thumbnail(bytes, header: header, geometry: geometry, failOn: .truncated, toSRGB: false)
            return PreviewImage(try shrunk.srgb8(colourManaged: false), bytes: bytes)
        }
    }

    /// The size a rendition's file is shown at in `box` when a page may inline its bytes as they are, instead of a
    /// preview shrunk and encoded again: a JPEG already in sRGB (no profile, an RGB or grey colour space) that
    /// carries no metadata (no EXIF, XMP, IPTC or ICC: nothing the re-encoded preview would not carry), at most
    /// `limit` times its shown size on each side (a 240-pixel thumbnail in the 200-pixel box).
    /// The size is the preview's: the file's, scaled to fit the box, never enlarged. nil when any of that does not
    /// hold, or the header does not read. Reads the header only; the caller has checked that the bytes are the
    /// recorded file's.
    package static func shownAsIs(_ bytes: FileBytes, box: ThumbnailGeometry, limit: Double) -> (width: Int, height: Int)? {
        guard let header = try? Attribution.attributed({ try Image.open(bytes, sequential: true, failOn: .truncated) }).0,
              header.loader?.hasPrefix("jpegload") == true, !header.needsColourTransform,
              !header.fieldNames.contains(where: Image.isMetadata) else { return nil }
        let (w, h) = (Double(max(1, header.width)), Double(max(1, header.height)))
        let scale = min(1, Double(box.width) / w, Double(box.height) / h)
        guard scale * limit >= 1 else { return nil }
        return (max(1, Int((w * scale).rounded())), max(1, Int((h * scale).rounded())))
    }

    /// Previews of several looks of one original from one decode: the original look is rendered into `geometry`
    /// exactly as `thumbnail(of:recipe:geometry:failOn:)` renders it, held in memory, and each recipe is applied
    /// to that small image, which is what `thumbnail` does after its shrink (so the pixels are the same as one
    /// rendering per look, at the cost of one).
    ///
    /// With `box`, each look is then shrunk into it as a thumbnail file with `geometry` would be by
    /// `pipeline(ofRendition:geometry:)` (Lanczos3, no colour transform): a cropped thumbnail's frame (`geometry`,
    /// e.g. 240×240 cover) shown in the report's box, the same crop as the thumbnail's without its encoding.
    package static func previews(ofOriginal bytes: FileBytes, looks: [Recipe], geometry: ThumbnailGeometry, failOn: FailOn,
                         within box: ThumbnailGeometry? = nil) throws -> [PreviewPixels] {
        try guarded(failOn: failOn, original: bytes) {
            let source = try ImageFormat.source(bytes, for: DecodeRequest(atLeast: MinimumSize(geometry)), failOn: failOn).resolved()
            let original = try held(thumbnail(of: source, recipe: .original, geometry: geometry, failOn: failOn))
            return try looks.map { recipe in
                let look = recipe.isEmpty ? original : try held(recipe.apply(to: original.image()))
                guard let box else { return look }
                return try held(look.image().thumbnail(geometry: box).srgb8(colourManaged: false))
            }
        }
    }

    /// Evaluates an image's pipeline into memory.
    fileprivate static func held(_ image: Image) throws -> PreviewPixels {
        PreviewPixels(width: image.width, height: image.height, bands: image.bands, pixels: try image.pixels())
    }
}
