internal import CVips

/// The file formats album writes, by libvips saver (`encoded(as:)`). Their extensions, and which file names
/// take which, are rows of Media's format table (`ImageFormat.registered`).
public enum OutputFormat: String, Sendable, CaseIterable {
    case jpeg, png, webp, avif, tiff
}

extension Image {
    /// Encodes the image in memory; the caller writes it to disk atomically.
    /// - Parameters:
    ///   - quality: 1–100, for the lossy formats.
    ///   - strip: drop all metadata (EXIF, XMP, ICC) from the output.
    ///
    /// Stripping also removes the metadata fields themselves before saving: libvips 8.14's `webpsave` ignores
    /// `strip` and writes the image's EXIF and ICC profile anyway (checked here with vipsheader and exiftool).
    public func encoded(as format: OutputFormat, quality: Int, strip: Bool) throws -> [UInt8] {
        let image = strip ? try removingFields(where: Image.isMetadata) : self
        var bytes: UnsafeMutableRawPointer?
        var length = 0
        let q = Int32(quality)
        let s: Int32 = strip ? 1 : 0
        let pointer = image.pointer
        let status: Int32 = switch format {
        case .jpeg: album_vips_jpegsave_buffer(pointer, &bytes, &length, q, s)
        case .png: album_vips_pngsave_buffer(pointer, &bytes, &length, s)
        case .webp: album_vips_webpsave_buffer(pointer, &bytes, &length, q, s)
        case .avif: album_vips_avifsave_buffer(pointer, &bytes, &length, q, s)
        case .tiff: album_vips_tiffsave_buffer(pointer, &bytes, &length, s)
        }
        guard status == 0, let bytes else {
            if let bytes { g_free(bytes) }
            throw VipsError(operation: "\(format.rawValue)save", message: Vips.takeErrorBuffer())
        }
        defer { g_free(bytes) }
        return Array(UnsafeRawBufferPointer(start: bytes, count: length))
    }

    /// Whether a field is metadata a saver writes into the file: EXIF (the block and its fields), XMP, IPTC, ICC.
    public static func isMetadata(_ field: String) -> Bool {
        field.hasPrefix("exif-") || ["xmp-data", "iptc-data", "icc-profile-data"].contains(field)
    }

    /// Encodes with the saver libvips picks for `suffix`, which may carry options in brackets:
    /// `".heic[compression=hevc]"`, `".gif"`, `".png[palette]"`. For formats album reads but does not export
    /// (test fixtures, mostly); album's own files go through `encoded(as:quality:strip:)`.
    public func encoded(suffix: String) throws -> [UInt8] {
        var bytes: UnsafeMutableRawPointer?
        var length = 0
        guard album_vips_write_to_buffer(pointer, suffix, &bytes, &length) == 0, let bytes else {
            if let bytes { g_free(bytes) }
            throw VipsError(operation: "write_to_buffer \(suffix)", message: Vips.takeErrorBuffer())
        }
        defer { g_free(bytes) }
        return Array(UnsafeRawBufferPointer(start: bytes, count: length))
    }
}
