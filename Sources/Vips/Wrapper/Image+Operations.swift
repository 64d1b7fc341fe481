internal import CVips
import System

/// How a thumbnail fills its box (libvips' `VipsSize` and `VipsInteresting` together).
public struct ThumbnailGeometry: Sendable, Equatable {
    /// Which part to keep when cropping to the box (libvips' `VipsInteresting`).
    public enum Crop: Int32, Sendable { case none = 0, centre = 1, entropy = 2, attention = 3 }
    /// Whether the box may be overrun (libvips' `VipsSize`).
    public enum Sizing: Int32, Sendable { case both = 0, up = 1, down = 2, force = 3 }

    public var width: Int
    public var height: Int
    public var crop: Crop
    public var sizing: Sizing

    public init(width: Int, height: Int, crop: Crop, sizing: Sizing) {
        self.width = width
        self.height = height
        self.crop = crop
        self.sizing = sizing
    }
}

extension Image {
    /// Shrink-on-load thumbnail straight from a file's bytes: JPEG DCT scaling, Lanczos3, EXIF orientation applied.
    /// - Parameters:
    ///   - header: the bytes opened already (`open`), for their size and orientation; opened here when nil.
    ///   - toSRGB: transform through the embedded profile (or CMYK's default) to sRGB; skipped when the
    ///     source is already sRGB without a profile, which saves a colour transform per photo.
    public static func thumbnail(_ bytes: FileBytes, header: Image? = nil, geometry: ThumbnailGeometry, failOn: FailOn,
                                 toSRGB: Bool) throws -> Image {
        try thumbnail(bytes, header: header, geometry: geometry, failOn: failOn, toSRGB: toSRGB, splitting: true)
    }

    /// - Parameter splitting: false leaves the rotation and crop to `vips_thumbnail`'s build, as libvips alone
    ///   does: the reference the split must equal (ThumbnailPlanTests).
    static func thumbnail(_ bytes: FileBytes, header: Image?, geometry: ThumbnailGeometry, failOn: FailOn, toSRGB: Bool,
                          splitting: Bool) throws -> Image {
        let header = try header ?? open(bytes, sequential: true, failOn: failOn)
        let plan = ThumbnailPlan(geometry, storedWidth: header.width, storedHeight: header.height, orientation: header.orientation,
                                 splitting: splitting)
        var out: UnsafeMutablePointer<VipsImage>?
        let status = bytes.withBytes { buffer in
            ProgramLock.building {
                album_vips_thumbnail_buffer(buffer.baseAddress, buffer.count, &out,
                                            Int32(plan.box.width), Int32(plan.box.height), geometry.sizing.rawValue,
                                            plan.libvipsCrop.rawValue, plan.libvipsRotates ? 0 : 1,
                                            "fail_on=\(failOn.name)", toSRGB ? "srgb" : nil)
            }
        }
        guard status == 0, let out else {
            if let out { ProgramLock.release(out) }
            throw VipsError(operation: "thumbnail", message: Vips.takeErrorBuffer(), file: bytes.path)
        }
        return try Image(out, source: bytes).finished(plan)
    }

    /// Resizes within a pipeline (no shrink-on-load, since the image is already open). A centre crop resizes only
    /// the window it keeps (`croppedFirst`).
    public func thumbnail(geometry: ThumbnailGeometry) throws -> Image {
        try thumbnail(geometry: geometry, splitting: true, cropFirst: true)
    }

    /// - Parameters:
    ///   - splitting: as for `thumbnail(_:header:geometry:failOn:toSRGB:splitting:)`.
    ///   - cropFirst: resize only the window a centre crop keeps, where `croppedFirst` applies; false resizes the
    ///     whole image, then cuts (the reference `CropFirstTests` compares with).
    func thumbnail(geometry: ThumbnailGeometry, splitting: Bool, cropFirst: Bool) throws -> Image {
        let plan = ThumbnailPlan(geometry, storedWidth: width, storedHeight: height, orientation: orientation, splitting: splitting)
        if cropFirst, let cropped = try croppedFirst(plan) { return cropped }
        return try derive("thumbnail_image") {
            album_vips_thumbnail_image(pointer, $0, Int32(plan.box.width), Int32(plan.box.height), geometry.sizing.rawValue,
                                       plan.libvipsCrop.rawValue, plan.libvipsRotates ? 0 : 1)
        }.finished(plan)
    }

    /// The rotation and crop `vips_thumbnail` leaves to album (`ThumbnailPlan`), with the pixels libvips' own
    /// steps give (copy to memory, `vips_autorot`, then `vips_smartcrop` to the box or the image, whichever is
    /// smaller).
    ///
    /// A centre crop is cut first, from the scaled image as it is stored: the same rectangle, turned back through
    /// the orientation. The cut is lazy, so the resize computes only the pixels kept (a third less for a 3:2 photo
    /// in a square) and only those are copied to memory for the rotation. The other crops look at the whole
    /// scaled image, so it is copied to memory first, as libvips does.
    private func finished(_ plan: ThumbnailPlan) throws -> Image {
        guard plan.finishesHere else { return self }
        let geometry = plan.geometry, orientation = plan.orientation
        if geometry.crop == .centre {
            let cut = try extractedArea(plan.centreCrop(storedWidth: width, storedHeight: height))
            return orientation == 1 ? cut : try cut.inMemory().autorotated()
        }
        var image = try inMemory()
        if orientation != 1 { image = try image.autorotated() }
        if geometry.crop != .none {
            let (w, h) = (min(geometry.width, image.width), min(geometry.height, image.height))
            let upright = image
            image = try upright.derive("smartcrop") {
                album_vips_smartcrop(upright.pointer, $0, Int32(w), Int32(h), geometry.crop.rawValue)
            }
        }
        return image
    }

    /// A centre-cropped thumbnail that resizes only the window the crop keeps (`CropFirstAxis`): the steps
    /// `vips_thumbnail_image` takes for a plain image without alpha (the processing colour space, `vips_resize`'s
    /// `reducev` then `reduceh` by the same factors, the output colour space; all but the reduction work pixel by
    /// pixel, so cutting before them changes nothing), on the window instead of the whole image, then the crop
    /// and the rotation `finished` does. nil where it does not apply (another crop or a fit, an enlargement, alpha,
    /// several pages, a packed coding) or saves nothing (no axis has room for a window): the caller resizes the
    /// whole image then.
    private func croppedFirst(_ plan: ThumbnailPlan) throws -> Image? {
        guard plan.finishesHere, plan.geometry.crop == .centre, !hasAlpha, album_vips_is_plain(pointer) != 0,
              let (hshrink, vshrink) = plan.reduceFactors(width: width, height: height) else { return nil }
        let (outWidth, outHeight) = (CropFirstAxis.roundUInt(Double(width) / hshrink), CropFirstAxis.roundUInt(Double(height) / vshrink))
        let kept = plan.centreCrop(storedWidth: outWidth, storedHeight: outHeight)
        let x = CropFirstAxis.window(length: width, shrink: hshrink, keptStart: kept.left, kept: kept.width)
        let y = CropFirstAxis.window(length: height, shrink: vshrink, keptStart: kept.top, kept: kept.height)
        guard x.inputLength < width || y.inputLength < height else { return nil }
        let space = Int32((bands < 3 ? VIPS_INTERPRETATION_B_W : VIPS_INTERPRETATION_sRGB).rawValue)
        let processed = try derive("colourspace") { album_vips_colourspace(pointer, $0, space) }
        let window = try processed.extractedArea(ThumbnailPlan.Area(left: x.inputStart, top: y.inputStart,
                                                                    width: x.inputLength, height: y.inputLength))
        let vertical = try window.derive("reducev") { album_vips_reducev(window.pointer, $0, vshrink) }
        let reduced = try vertical.derive("reduceh") { album_vips_reduceh(vertical.pointer, $0, hshrink) }
        let cut = try reduced.extractedArea(ThumbnailPlan.Area(left: kept.left - x.outputStart, top: kept.top - y.outputStart,
                                                               width: kept.width, height: kept.height))
        let output = try cut.derive("colourspace") { album_vips_colourspace(cut.pointer, $0, space) }
        return plan.orientation == 1 ? output : try output.inMemory().autorotated()
    }

    /// A rectangle of the image, computed only when its pixels are asked for.
    func extractedArea(_ area: ThumbnailPlan.Area) throws -> Image {
        try derive("extract_area") {
            album_vips_extract_area(pointer, $0, Int32(area.left), Int32(area.top), Int32(area.width), Int32(area.height))
        }
    }

    /// Applies the EXIF orientation to the pixels and removes the tag, so the image is upright without it.
    public func autorotated() throws -> Image {
        try derive("autorot") { album_vips_autorot(pointer, $0) }
    }

    /// The image as 8-bit sRGB, 3 bands (4 with alpha): ICC profiles honoured, CMYK, grey and 16-bit converted.
    public func srgb8(colourManaged: Bool) throws -> Image {
        var image = self
        if colourManaged && (needsColourTransform || isCMYK) {
            image = try image.derive("icc_transform") { album_vips_icc_to_srgb(image.pointer, $0) }
        }
        let interpretation = vips_image_get_interpretation(image.pointer)
        if interpretation != VIPS_INTERPRETATION_sRGB || image.bands < 3 {
            image = try image.derive("colourspace") {
                album_vips_colourspace(image.pointer, $0, Int32(VIPS_INTERPRETATION_sRGB.rawValue))
            }
        }
        if vips_image_get_format(image.pointer) != VIPS_FORMAT_UCHAR {
            image = try image.derive("cast") { album_vips_cast(image.pointer, $0, Int32(VIPS_FORMAT_UCHAR.rawValue)) }
        }
        return image
    }

    /// sRGB pixels converted through an ICC profile (`"cmyk"`, `"p3"` and `"srgb"` are built into libvips, or a
    /// file's path), with that profile attached: e.g. a CMYK image as a press would print it.
    public func exported(toProfile profile: String) throws -> Image {
        try derive("icc_export") { album_vips_icc_export(pointer, $0, profile) }
    }

    /// Multiplies each pixel's first three bands by a 3×3 matrix (rows are output bands), rounding back to 8 bits.
    /// Alpha, when present, passes through untouched.
    public func recombined(_ matrix: [[Double]]) throws -> Image {
        precondition(matrix.count == 3 && matrix.allSatisfy { $0.count == 3 }, "recomb needs a 3×3 matrix")
        return try mapColourBands { colour in
            let flat = matrix.flatMap { $0 }
            guard let mask = flat.withUnsafeBufferPointer({ vips_image_new_matrix_from_array(3, 3, $0.baseAddress, 3 * 3) }) else {
                throw VipsError(operation: "matrix", message: Vips.takeErrorBuffer())
            }
            defer { ProgramLock.release(mask) }
            let mixed = try colour.derive("recomb") { album_vips_recomb(colour.pointer, $0, mask) }
            return try mixed.roundedToUChar()
        }
    }

    /// `a × pixel + b` per colour band, rounded back to 8 bits; alpha untouched.
    public func linear(scale a: [Double], offset b: [Double]) throws -> Image {
        precondition(a.count == b.count, "linear needs as many offsets as scales")
        return try mapColourBands { colour in
            let mixed = try colour.derive("linear") { album_vips_linear(colour.pointer, $0, a, b, Int32(a.count)) }
            return try mixed.roundedToUChar()
        }
    }

    /// Composites the alpha channel over white; an image without alpha is returned as it is.
    public func flattenedOnWhite() throws -> Image {
        guard hasAlpha else { return self }
        return try derive("flatten") { album_vips_flatten_white(pointer, $0) }
    }

    /// Scales by `factor` with libvips' default kernel (Lanczos3).
    public func resized(by factor: Double) throws -> Image {
        try derive("resize") { album_vips_resize(pointer, $0, factor) }
    }

    /// Runs `transform` on the colour bands, then puts the alpha band back.
    public func mapColourBands(_ transform: (Image) throws -> Image) throws -> Image {
        guard hasAlpha else { return try transform(self) }
        let colourBands = bands - 1
        let colour = try derive("extract_band") { album_vips_extract_band(pointer, $0, 0, Int32(colourBands)) }
        let alpha = try derive("extract_band") { album_vips_extract_band(pointer, $0, Int32(colourBands), 1) }
        let done = try transform(colour)
        return try done.derive("bandjoin") { album_vips_bandjoin2(done.pointer, alpha.pointer, $0) }
    }

    /// Float results back to 8 bits, rounding to nearest (`vips_cast` alone truncates) and clipping to 0…255.
    public func roundedToUChar() throws -> Image {
        let n = bands
        let rounded = try derive("linear") {
            album_vips_linear(pointer, $0, [Double](repeating: 1, count: n), [Double](repeating: 0.5, count: n), Int32(n))
        }
        return try rounded.derive("cast") { album_vips_cast(rounded.pointer, $0, Int32(VIPS_FORMAT_UCHAR.rawValue)) }
    }
}
