internal import CVips

/// Colour spaces album converts between (libvips' `VipsInterpretation`).
public enum ColourSpace: Sendable {
    case srgb, lch, lab
    /// 16-bit RGB and grey, 8-bit grey (`b-w`), and CMYK (4 bands, ink amounts 0–255).
    case rgb16, grey16, grey, cmyk

    var interpretation: VipsInterpretation {
        switch self {
        case .srgb: VIPS_INTERPRETATION_sRGB
        case .lch: VIPS_INTERPRETATION_LCH
        case .lab: VIPS_INTERPRETATION_LAB
        case .rgb16: VIPS_INTERPRETATION_RGB16
        case .grey16: VIPS_INTERPRETATION_GREY16
        case .grey: VIPS_INTERPRETATION_B_W
        case .cmyk: VIPS_INTERPRETATION_CMYK
        }
    }
}

extension Image {
    /// Converts to another colour space (float for Lab/LCh, 8-bit for sRGB).
    public func converted(to space: ColourSpace) throws -> Image {
        try derive("colourspace") { album_vips_colourspace(pointer, $0, Int32(space.interpretation.rawValue)) }
    }

    /// The same pixels labelled as `space`, e.g. after joining bands computed in that space.
    public func relabelled(as space: ColourSpace) throws -> Image {
        try derive("copy") { album_vips_copy_interpretation(pointer, $0, Int32(space.interpretation.rawValue)) }
    }

    /// Bands `first ..< first + count`.
    public func bands(_ first: Int, count: Int = 1) throws -> Image {
        try derive("extract_band") { album_vips_extract_band(pointer, $0, Int32(first), Int32(count)) }
    }

    /// This image's bands followed by `other`'s.
    public func joined(with other: Image) throws -> Image {
        try derive("bandjoin") { album_vips_bandjoin2(pointer, other.pointer, $0) }
    }

    /// Pixel-wise product.
    public func multiplied(by other: Image) throws -> Image {
        try derive("multiply") { album_vips_multiply(pointer, other.pointer, $0) }
    }

    /// Pixel-wise sum.
    public func adding(_ other: Image) throws -> Image {
        try derive("add") { album_vips_add(pointer, other.pointer, $0) }
    }

    /// `a × pixel + b` on every band, in float (no rounding or clipping).
    public func scaled(by a: Double, plus b: Double) throws -> Image {
        try derive("linear") { album_vips_linear(pointer, $0, [a], [b], 1) }
    }

    /// `a[i] × band i + b[i]`, one pair per band, in float (no rounding or clipping).
    public func scaled(by a: [Double], plus b: [Double]) throws -> Image {
        precondition(a.count == b.count, "linear needs as many offsets as scales")
        return try derive("linear") { album_vips_linear(pointer, $0, a, b, Int32(a.count)) }
    }

    /// `e^pixel` on every band.
    public func exponential() throws -> Image {
        try derive("exp") { album_vips_exp(pointer, $0) }
    }

    /// Maps every 8-bit value of every colour band through `table` (256 entries); alpha is untouched.
    public func mapped(through table: [UInt8]) throws -> Image {
        precondition(table.count == 256, "a lookup table has 256 entries")
        let values = table.map(Double.init)
        guard let matrix = values.withUnsafeBufferPointer({ vips_image_new_matrix_from_array(256, 1, $0.baseAddress, 256) }) else {
            throw VipsError(operation: "matrix", message: Vips.takeErrorBuffer())
        }
        let lut = Image(matrix, source: nil)
        let lut8 = try lut.derive("cast") { album_vips_cast(lut.pointer, $0, Int32(VIPS_FORMAT_UCHAR.rawValue)) }
        return try mapColourBands { colour in
            try colour.derive("maplut") { album_vips_maplut(colour.pointer, $0, lut8.pointer) }
        }
    }
}
