import Vips

/// libvips `sharpen`: unsharp masking of lightness only (in LabS), with libvips' default thresholds and slopes
/// (`x1` 2, `m1` 0, `m2` 3, `y2` 10, `y3` 20).
///
/// `sigma` is the mask's Gaussian, in pixels of the rendered image: sharpening acts on the finest detail of
/// whatever size is made, so a thumbnail and a full-size export are each sharpened at their own scale.
/// The result is 8-bit sRGB; alpha is kept.
public struct Sharpen: FilterPrimitive {
    public static let spec = FilterSpec(Sharpen(), "sharpen", .number("sigma", \.sigma, in: 0.3...10))
    /// In pixels of the rendered image.
    public var sigma: Double = 1.0

    public func apply(to image: Image) throws -> Image {
        try image.sharpened(sigma: sigma)
    }
}
