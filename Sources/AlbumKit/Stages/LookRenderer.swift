import Vips

/// Turns a photo's original bytes and its look (a recipe) into one libvips pipeline, and pixels into file bytes.
///
/// Every rendering starts from the original, never from an earlier rendition, so nothing is compressed twice.
/// Pixels are upright (EXIF orientation applied), colour-managed to sRGB, then filtered.
public enum LookRenderer {
    /// A thumbnail of the look: shrink-on-load from the original, then colour management and the recipe on the
    /// small image.
    ///
    /// The colour transform is the full-size path's (`srgb8(colourManaged: true)`: lcms, embedded profile to sRGB,
    /// relative intent), so a thumbnail and an export of the same photo have the same colours.
    public static func thumbnail(of bytes: FileBytes, recipe: Recipe, geometry: ThumbnailGeometry, failOn: FailOn) throws -> Image {
        let header = try Image.open(bytes, sequential: true, failOn: failOn)
        let small = header.isCMYK
            ? try cmykThumbnail(of: bytes, header: header, geometry: geometry, failOn: failOn)
            : try Image.thumbnail(bytes, geometry: geometry, failOn: failOn, toSRGB: false)
        let pixels = try small.srgb8(colourManaged: true)
        return recipe.isEmpty ? pixels : try recipe.apply(to: pixels)
    }

    /// CMYK is transformed to sRGB before it is shrunk. libvips 8.14's `vips_thumbnail` converts CMYK itself,
    /// through its own XYZ rather than profile to profile, and gave colours up to 15 levels away from the full-size
    /// rendering of the same file (sRGB 60, 90, 140 printed to CMYK came back as 45, 90, 138 in the thumbnail and as
    /// 60, 89, 139 at full size). So: JPEG shrink-on-load as `vips_thumbnail` would do it (leaving at least a
    /// factor of two for the final Lanczos3), lcms to sRGB, then `vips_thumbnail_image`.
    private static func cmykThumbnail(of bytes: FileBytes, header: Image, geometry: ThumbnailGeometry, failOn: FailOn) throws -> Image {
        let (w, h) = header.orientation >= 5 ? (header.height, header.width) : (header.width, header.height)
        let factor = min(Double(w) / Double(geometry.width), Double(h) / Double(geometry.height))
        let shrink = header.loader?.hasPrefix("jpegload") == true
            ? (factor >= 16 ? 8 : factor >= 8 ? 4 : factor >= 4 ? 2 : 1) : 1
        // Rotations read the image out of order, which a sequential load cannot do.
        let image = try Image.open(bytes, sequential: header.orientation == 1, failOn: failOn, jpegShrink: shrink)
        return try image.srgb8(colourManaged: true).thumbnail(geometry: geometry)
    }

    /// The look at full size, or with its long edge reduced to `maxSize` (never enlarged).
    public static func fullSize(of bytes: FileBytes, recipe: Recipe, maxSize: Int?, failOn: FailOn) throws -> Image {
        let header = try Image.open(bytes, sequential: true, failOn: failOn)
        // Rotations and vertical flips read the image out of order, which a sequential load cannot do.
        let image = header.orientation == 1 ? header : try Image.open(bytes, sequential: false, failOn: failOn)
        var pixels = try image.autorotated().srgb8(colourManaged: true)
        if let maxSize, max(pixels.width, pixels.height) > maxSize {
            pixels = try pixels.resized(by: Double(maxSize) / Double(max(pixels.width, pixels.height)))
        }
        return recipe.isEmpty ? pixels : try recipe.apply(to: pixels)
    }

    /// Encodes pixels for a file, applying the metadata policy.
    public static func encode(_ image: Image, format: OutputFormat, quality: Int, metadata: MetadataPolicy) throws -> [UInt8] {
        var image = image
        if format == .jpeg { image = try image.flattenedOnWhite() }
        switch metadata {
        case .strip:
            return try image.encoded(as: format, quality: quality, strip: true)
        case .keep:
            break
        case .stripGPS:
            // libvips rebuilds the EXIF block from the exif-ifd* fields on save; XMP can carry GPS too, so it goes.
            image = try image.removingFields { $0.hasPrefix("exif-ifd3-") || $0 == "xmp-data" }
        case .keepICC:
            image = try image.removingFields { $0.hasPrefix("exif-") || $0 == "xmp-data" || $0 == "iptc-data" }
        }
        return try image.encoded(as: format, quality: quality, strip: false)
    }
}

/// What metadata an exported file keeps.
public enum MetadataPolicy: String, Sendable, CaseIterable {
    /// Keep EXIF, ICC and the rest, but remove GPS (EXIF GPS fields and XMP).
    case stripGPS = "strip-gps"
    /// Remove all metadata.
    case strip
    /// Keep everything, GPS included.
    case keep
    /// Keep only the ICC profile.
    case keepICC = "keep-icc"
}
