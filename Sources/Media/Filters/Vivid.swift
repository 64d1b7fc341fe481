import Vips

/// Vibrance: chroma raised more for dull colours than for already-saturated ones, hue and lightness kept.
///
/// In CIE LCh (D65), each pixel's chroma `C` becomes
/// ```
/// C' = C · (1 + 0.6 · amount · e^(−C / 40))
/// ```
/// so a greyish colour (C ≈ 10) gains about 47 % at `amount` 1, a vivid one (C ≈ 80) about 8 %, and grey stays grey.
public struct Vivid: FilterPrimitive {
    public static let spec = FilterSpec(Vivid(), "vivid", .number("amount", \.amount, in: 0...2))
    /// 0 leaves the photo as it is; 1 is the preset's default boost.
    public var amount: Double = 1.0

    public func apply(to image: Image) throws -> Image {
        try image.mapColourBands { colour in
            let lch = try colour.converted(to: .lch)
            let lightness = try lch.bands(0)
            let chroma = try lch.bands(1)
            let hue = try lch.bands(2)
            let gain = try chroma.scaled(by: -1 / 40, plus: 0).exponential().scaled(by: 0.6 * amount, plus: 1)
            let boosted = try chroma.multiplied(by: gain)
            let result = try lightness.joined(with: boosted).joined(with: hue)
            return try result.relabelled(as: .lch).converted(to: .srgb)
        }
    }
}
