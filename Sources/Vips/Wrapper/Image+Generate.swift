internal import CVips

extension Image {
    /// A two-band integer image whose pixel at (x, y) holds x and y: the start of position-dependent effects
    /// such as a vignette. Generated lazily, a tile at a time.
    public static func coordinates(width: Int, height: Int) throws -> Image {
        try Vips.started()
        var out: UnsafeMutablePointer<VipsImage>?
        guard ProgramLock.building({ album_vips_xyz(&out, Int32(width), Int32(height)) }) == 0, let out else {
            if let out { ProgramLock.release(out) }
            throw VipsError(operation: "xyz", message: Vips.takeErrorBuffer())
        }
        return Image(out, source: nil)
    }

    /// One-band float Gaussian noise, the same for the same `seed` and size on every run and thread count:
    /// libvips 8.14's `gaussnoise` computes each pixel from the seed and the pixel's position.
    public static func gaussianNoise(width: Int, height: Int, sigma: Double, mean: Double = 0, seed: Int) throws -> Image {
        try Vips.started()
        var out: UnsafeMutablePointer<VipsImage>?
        guard ProgramLock.building({ album_vips_gaussnoise(&out, Int32(width), Int32(height), sigma, mean, Int32(truncatingIfNeeded: seed)) }) == 0,
              let out else {
            if let out { ProgramLock.release(out) }
            throw VipsError(operation: "gaussnoise", message: Vips.takeErrorBuffer())
        }
        return Image(out, source: nil)
    }
}
