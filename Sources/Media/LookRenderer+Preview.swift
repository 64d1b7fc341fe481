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

    /// A preview shrunk from a rendition's file (a thumbnail, a filtered image, an export) into `geometry`.
    ///
    /// A rendition's pixels are already what the look needs (upright, converted to sRGB, filtered: this renderer
    /// made them), so nothing is applied again: shrink-on-load, Lanczos3, no colour transform. The caller has
    /// checked that the bytes are the recorded file's.
    package static func preview(ofRendition bytes: FileBytes, geometry: ThumbnailGeometry) throws -> PreviewPixels {
        try guarded(failOn: .truncated) {
            try held(Image.thumbnail(bytes, geometry: geometry, failOn: .truncated, toSRGB: false).srgb8(colourManaged: false))
        }
    }

    /// Previews of several looks of one original from one decode: the original look is rendered into `geometry`
    /// exactly as `thumbnail(of:recipe:geometry:failOn:)` renders it, held in memory, and each recipe is applied
    /// to that small image, which is what `thumbnail` does after its shrink (so the pixels are the same as one
    /// rendering per look, at the cost of one).
    ///
    /// With `box`, each look is then shrunk into it as a thumbnail file with `geometry` would be by
    /// `preview(ofRendition:geometry:)` (Lanczos3, no colour transform): a cropped thumbnail's frame (`geometry`,
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

    /// A preview's encoded JPEG bytes, as the report inlines them.
    package static func encoded(_ preview: PreviewPixels, quality: Int) throws -> [UInt8] {
        try guarded(failOn: .truncated) { try encode(preview.image(), format: .jpeg, quality: quality, metadata: .strip) }
    }

    /// Evaluates an image's pipeline into memory.
    private static func held(_ image: Image) throws -> PreviewPixels {
        PreviewPixels(width: image.width, height: image.height, bands: image.bands, pixels: try image.pixels())
    }
}
