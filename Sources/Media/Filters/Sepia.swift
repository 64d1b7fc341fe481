import Vips

/// W3C Filter Effects `sepia(amount)`: a colour matrix on 8-bit sRGB values (no linearisation), as in CSS.
///
/// With `a = amount` and `k = 1 − a` (spec: https://www.w3.org/TR/filter-effects-1/#sepiaEquivalent):
/// ```
/// R' = (0.393 + 0.607k)R + (0.769 − 0.769k)G + (0.189 − 0.189k)B
/// G' = (0.349 − 0.349k)R + (0.686 + 0.314k)G + (0.168 − 0.168k)B
/// B' = (0.272 − 0.272k)R + (0.534 − 0.534k)G + (0.131 + 0.869k)B
/// ```
/// Results are rounded to the nearest level and clipped to 0…255.
public struct Sepia: MatrixPrimitive {
    public static let spec = FilterSpec(Sepia(), "sepia", .number("amount", \.amount, in: 0...1))
    /// 0 leaves the photo as it is, 1 is full sepia. The gallery app's sepia tone is 0.85.
    public var amount: Double = 0.85

    /// The W3C matrix at `k = 1 − amount`.
    public var matrix: [[Double]] {
        ColourMatrix(base: [[0.393, 0.769, 0.189], [0.349, 0.686, 0.168], [0.272, 0.534, 0.131]],
                     slope: [[0.607, -0.769, -0.189], [-0.349, 0.314, -0.168], [-0.272, -0.534, 0.869]]).at(1 - amount)
    }
}
