import CVips

extension Image {
    /// The bytes the decoder of this (still undecoded) image holds for the whole image while it decodes, whatever
    /// the output scale; 0 for a decoder that streams.
    ///
    /// - A progressive JPEG: libjpeg keeps every DCT coefficient, 2 bytes each, each component at its own sampling
    ///   (`jpeg-chroma-subsample`): 6 bytes a pixel at 4:4:4, 3 at 4:2:0, 2 for greyscale, 8 for CMYK. The corpus'
    ///   heaviest, 4096×4096 at 4:4:4, holds 101 MB even when it shrinks on load to 1/8 (Benchmarks/RESULTS.md,
    ///   "What one photo needs").
    /// - An interlaced PNG (or GIF): the whole decoded image, every band at its sample size.
    /// - A baseline JPEG, a plain PNG: 0, they decode a strip at a time.
    public var decoderBufferBytes: Int {
        guard isInterlaced else { return 0 }
        let pixels = width * height
        guard loader?.hasPrefix("jpegload") == true else {
            return pixels * bands * Int(vips_format_sizeof(vips_image_get_format(pointer)))
        }
        // Coefficients per pixel, in halves: luma and two chroma planes at their sampling; unknown modes (and
        // CMYK, four full planes) are counted at full resolution, the most they can be.
        let halves: Int
        switch (bands, string("jpeg-chroma-subsample")) {
        case (1, _): halves = 2
        case (3, "4:2:0"): halves = 3
        case (3, "4:2:2"), (3, "4:4:0"): halves = 4
        default: halves = 2 * bands
        }
        // (halves / 2) coefficients a pixel, 2 bytes each.
        return pixels * halves
    }
}
