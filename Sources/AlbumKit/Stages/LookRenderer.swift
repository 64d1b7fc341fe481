import Vips

/// Turns a photo's original bytes and its look (a recipe) into one libvips pipeline, and pixels into file bytes.
///
/// Every rendering starts from the original, never from an earlier rendition, so nothing is compressed twice.
/// Pixels are upright (EXIF orientation applied), colour-managed to sRGB, then filtered.
public enum LookRenderer {
    /// A thumbnail of the look: shrink-on-load from the original, then the recipe on the small image.
    public static func thumbnail(of bytes: FileBytes, recipe: Recipe, geometry: ThumbnailGeometry, failOn: FailOn) throws -> Image {
        let header = try Image.open(bytes, sequential: true, failOn: failOn)
        let transform = header.needsColourTransform || header.isCMYK
        let small = try Image.thumbnail(bytes, geometry: geometry, failOn: failOn, toSRGB: transform)
        let pixels = try small.srgb8(colourManaged: false)
        return recipe.isEmpty ? pixels : try recipe.apply(to: pixels)
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
