import Vips

/// W3C Filter Effects `brightness(amount)`: every colour value multiplied by `amount`, on 8-bit sRGB values.
///
/// ```
/// R' = amount·R,  G' = amount·G,  B' = amount·B
/// ```
/// Rounded to the nearest level and clipped to 0…255; alpha is kept. 0 is black, 1 changes nothing.
public struct Brightness: FilterPrimitive {
    public static let spec = FilterSpec(Brightness(), "brightness", .number("amount", \.amount, in: 0...3))
    /// 1 (CSS's default) changes nothing.
    public var amount: Double = 1.0

    public func apply(to image: Image) throws -> Image {
        try image.linear(scale: [amount, amount, amount], offset: [0, 0, 0])
    }
}
