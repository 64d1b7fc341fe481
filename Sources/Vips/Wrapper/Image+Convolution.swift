internal import CVips

extension Image {
    /// libvips `sharpen`: unsharp masking of lightness only (in LabS), so colours do not fringe.
    /// Alpha, when present, passes through untouched; the result is 8-bit like the input.
    /// - Parameter sigma: the Gaussian's standard deviation, in pixels of this image.
    public func sharpened(sigma: Double) throws -> Image {
        try mapColourBands { colour in
            let sharp = try colour.derive("sharpen") { album_vips_sharpen(colour.pointer, $0, sigma) }
            return try sharp.uchar()
        }
    }

    /// libvips `gaussblur` on every colour band; alpha untouched. 8-bit in, 8-bit out.
    /// - Parameter sigma: the Gaussian's standard deviation, in pixels of this image. Under 0.2 it is a copy.
    public func blurred(sigma: Double) throws -> Image {
        try mapColourBands { colour in
            let soft = try colour.derive("gaussblur") { album_vips_gaussblur(colour.pointer, $0, sigma) }
            return try soft.uchar()
        }
    }

    /// The image as 8-bit values: returned as it is when it already is, otherwise rounded and clipped.
    func uchar() throws -> Image {
        vips_image_get_format(pointer) == VIPS_FORMAT_UCHAR ? self : try roundedToUChar()
    }
}
