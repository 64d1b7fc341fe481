import Vips

/// W3C Filter Effects `contrast(amount)`: values pushed away from (or towards) the middle of the range.
///
/// CSS defines it on 0…1 values as `C' = amount·C + 0.5 − 0.5·amount`; on 8-bit values that is
/// ```
/// R' = amount·(R − 127.5) + 127.5        (the same for G and B)
/// ```
/// so mid-grey stays put (127.5, halfway between levels 127 and 128). Rounded to the nearest level and clipped to
/// 0…255; alpha is kept. 0 is flat grey, 1 changes nothing.
public struct Contrast: FilterPrimitive {
    public static let spec = FilterSpec(Contrast(), "contrast", .number("amount", \.amount, in: 0...3))
    /// 1 (CSS's default) changes nothing.
    public var amount: Double = 1.0

    public func apply(to image: Image) throws -> Image {
        let offset = 127.5 * (1 - amount)
        return try image.linear(scale: [amount, amount, amount], offset: [offset, offset, offset])
    }
}
