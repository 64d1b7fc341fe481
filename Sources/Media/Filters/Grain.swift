import Vips

/// Film grain: the same Gaussian noise added to R, G and B (monochrome grain), one value per pixel.
///
/// ```
/// n ~ N(0, (32 · amount)²)        one value per pixel, from libvips' gaussnoise with `seed`
/// V' = round(V + n)                for V = R, G, B; clipped to 0…255
/// ```
/// The noise depends only on the seed and the pixel's position, so the same photo, size and seed always give the
/// same output, on every run and with any number of workers. Grain is per pixel of the rendering: a thumbnail's
/// grain is as fine, in pixels, as the full size's. Alpha is kept.
public struct Grain: FilterPrimitive {
    public static let spec = FilterSpec(
        Grain(), "grain", .number("amount", \.amount, in: 0...1), .integer("seed", \.seed, in: 0...Int(Int32.max)))
    /// The noise's standard deviation is 32·amount levels.
    public var amount: Double = 0.3
    /// Which noise: another seed gives different grain of the same strength.
    public var seed: Int = 1

    public func apply(to image: Image) throws -> Image {
        guard amount > 0 else { return image }
        let noise = try Image.gaussianNoise(width: image.width, height: image.height, sigma: 32 * amount, seed: seed)
        return try image.mapColourBands { colour in
            try colour.adding(noise).roundedToUChar()
        }
    }
}
