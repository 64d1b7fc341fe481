import Vips

/// Gaussian blur (libvips `gaussblur`), its size relative to the image so a thumbnail and the full-size image
/// look equally soft.
///
/// ```
/// σ (pixels) = sigma / 100 · min(width, height)
/// ```
/// `sigma` is a percentage of the rendered image's shorter side: the side a cover-cropped square thumbnail and a
/// contained one both keep whole. Under 0.2 pixels nothing changes. Each colour band is blurred alone; alpha is
/// kept. Large values cost time at full size: `sigma` 1 on a 6000×4000 photo is a 40-pixel Gaussian, about 13 s
/// on one core here (a thumbnail's is instant).
public struct Blur: FilterPrimitive {
    public static let spec = FilterSpec(Blur(), "blur", .number("sigma", \.sigma, in: 0...1))
    /// A percentage of the shorter side.
    public var sigma: Double = 0.5

    /// The Gaussian's σ in pixels for an image of this size.
    public func pixels(width: Int, height: Int) -> Double {
        sigma / 100 * Double(min(width, height))
    }

    public func apply(to image: Image) throws -> Image {
        let radius = pixels(width: image.width, height: image.height)
        guard radius >= 0.2 else { return image }
        return try image.blurred(sigma: radius)
    }
}
