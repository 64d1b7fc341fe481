import Vips

/// W3C Filter Effects `saturate(amount)`: a colour matrix on 8-bit sRGB values (no linearisation), as in CSS.
///
/// With `s = amount` (spec: https://www.w3.org/TR/filter-effects-1/#saturateEquivalent, the feColorMatrix
/// `saturate` matrix):
/// ```
/// R' = (0.213 + 0.787s)R + (0.715 − 0.715s)G + (0.072 − 0.072s)B
/// G' = (0.213 − 0.213s)R + (0.715 + 0.285s)G + (0.072 − 0.072s)B
/// B' = (0.213 − 0.213s)R + (0.715 − 0.715s)G + (0.072 + 0.928s)B
/// ```
/// 0 is grey, 1 leaves the photo as it is, above 1 over-saturates. Rounded to the nearest level, clipped to
/// 0…255; alpha is kept.
public struct Saturation: MatrixPrimitive {
    public static let spec = FilterSpec(Saturation(), "saturation", .number("amount", \.amount, in: 0...3))
    /// 1 (CSS's default) changes nothing.
    public var amount: Double = 1.0

    /// The W3C matrix at `s = amount`.
    public var matrix: [[Double]] {
        ColourMatrix(base: [[0.213, 0.715, 0.072], [0.213, 0.715, 0.072], [0.213, 0.715, 0.072]],
                     slope: [[0.787, -0.715, -0.072], [-0.213, 0.285, -0.072], [-0.213, -0.715, 0.928]]).at(amount)
    }
}
