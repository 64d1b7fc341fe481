import Vips

/// A primitive that is one colour matrix on the 8-bit sRGB values (libvips `recomb`): `sepia`, `grayscale`,
/// `saturation`. Results are rounded to the nearest level and clipped to 0…255; alpha is kept.
public protocol MatrixPrimitive: FilterPrimitive {
    /// The 3×3 matrix, rows are output channels R, G, B.
    var matrix: [[Double]] { get }
}

extension MatrixPrimitive {
    public func apply(to image: Image) throws -> Image {
        try image.recombined(matrix)
    }
}
