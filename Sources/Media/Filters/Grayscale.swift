import Vips

/// W3C Filter Effects `grayscale(amount)`: a colour matrix on 8-bit sRGB values (no linearisation), as in CSS.
///
/// With `k = 1 − amount` (spec: https://www.w3.org/TR/filter-effects-1/#grayscaleEquivalent):
/// ```
/// R' = (0.2126 + 0.7874k)R + (0.7152 − 0.7152k)G + (0.0722 − 0.0722k)B
/// G' = (0.2126 − 0.2126k)R + (0.7152 + 0.2848k)G + (0.0722 − 0.0722k)B
/// B' = (0.2126 − 0.2126k)R + (0.7152 − 0.7152k)G + (0.0722 + 0.9278k)B
/// ```
/// Results are rounded to the nearest level and clipped to 0…255; alpha is kept.
public struct Grayscale: MatrixPrimitive {
    public static let spec = FilterSpec(Grayscale(), "grayscale", .number("amount", \.amount, in: 0...1))
    /// 0 leaves the photo as it is, 1 is fully grey (CSS's default).
    public var amount: Double = 1.0

    /// The W3C matrix at `k = 1 − amount`.
    public var matrix: [[Double]] {
        ColourMatrix(base: [[0.2126, 0.7152, 0.0722], [0.2126, 0.7152, 0.0722], [0.2126, 0.7152, 0.0722]],
                     slope: [[0.7874, -0.7152, -0.0722], [-0.2126, 0.2848, -0.0722], [-0.2126, -0.7152, 0.9278]]).at(1 - amount)
    }
}
