import Vips

/// Darkens towards the corners, measured relative to the image's own size, so a thumbnail and the full-size
/// image get the same vignette.
///
/// For a pixel whose centre is at `(x + 0.5, y + 0.5)` in a `w × h` image:
/// ```
/// r² = ((x + 0.5 − w/2)² + (y + 0.5 − h/2)²) / ((w/2)² + (h/2)²)     0 at the centre, 1 in the corners
/// f  = 1 − amount · r²
/// V' = round(f · V)                                                      for V = R, G, B
/// ```
/// At `amount` 1 the very corners go black; the middle of each edge of a square image keeps half its light.
/// Clipped to 0…255; alpha is kept.
public struct Vignette: FilterPrimitive {
    public static let spec = FilterSpec(Vignette(), "vignette", .number("amount", \.amount, in: 0...1))
    /// 1 darkens the very corners to black.
    public var amount: Double = 0.5

    public func apply(to image: Image) throws -> Image {
        let w = Double(image.width), h = Double(image.height)
        let xy = try Image.coordinates(width: image.width, height: image.height)
        let dx = try xy.bands(0).scaled(by: 1, plus: 0.5 - w / 2)
        let dy = try xy.bands(1).scaled(by: 1, plus: 0.5 - h / 2)
        let squared = try dx.multiplied(by: dx).adding(dy.multiplied(by: dy))
        let factor = try squared.scaled(by: -amount / (w * w / 4 + h * h / 4), plus: 1)
        return try image.mapColourBands { colour in
            try colour.multiplied(by: factor).roundedToUChar()
        }
    }
}
