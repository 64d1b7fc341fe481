import Vips

/// Tints the photo with a colour, keeping its lightness: in CIE Lab (D65), each pixel's colour moves towards the
/// tint's by `amount`.
///
/// With `(a_t, b_t)` the tint colour's Lab chroma coordinates (computed by libvips from its sRGB value):
/// ```
/// L' = L
/// a' = a + amount·(a_t − a)
/// b' = b + amount·(b_t − b)
/// ```
/// At `amount` 1 it is sharp's `tint()`: the photo's lightness in the tint's colour. Back to 8-bit sRGB after
/// (rounded, clipped to the gamut by libvips); alpha is kept.
public struct Tint: FilterPrimitive {
    public static let spec = FilterSpec(
        Tint(), "tint", .colour("colour", \.colour), .number("amount", \.amount, in: 0...1))
    /// The colour, `#rrggbb`. The default is a sepia brown.
    public var colour: RGBColour = RGBColour(red: 0x70, green: 0x42, blue: 0x14)
    /// 0 leaves the photo as it is, 1 takes the tint's colour entirely.
    public var amount: Double = 0.5

    public func apply(to image: Image) throws -> Image {
        let swatch = try Image.fromPixels(colour.components, width: 1, height: 1, bands: 3)
        let tint = try swatch.converted(to: .lab).values()  // [L, a, b]
        let t = amount
        return try image.mapColourBands { colour in
            let lab = try colour.converted(to: .lab)
            let lightness = try lab.bands(0)
            let chroma = try lab.bands(1, count: 2).scaled(by: [1 - t, 1 - t], plus: [t * tint[1], t * tint[2]])
            return try lightness.joined(with: chroma).relabelled(as: .lab).converted(to: .srgb)
        }
    }
}
