internal import CVips

extension Image {
    /// The names of every metadata field on the image, e.g. "exif-ifd2-DateTimeOriginal", "icc-profile-data".
    public var fieldNames: [String] {
        guard let fields = vips_image_get_fields(pointer) else { return [] }
        defer { g_strfreev(fields) }
        var names: [String] = []
        var index = 0
        while let name = fields[index] {
            names.append(String(cString: name))
            index += 1
        }
        return names
    }

    /// Whether a metadata field exists.
    public func has(_ field: String) -> Bool {
        vips_image_get_typeof(pointer, field) != 0
    }

    /// A string field (libvips' EXIF strings look like `"Canon (Canon, ASCII, 6 components, 6 bytes)"`), or nil.
    public func string(_ field: String) -> String? {
        guard has(field) else { return nil }
        // EXIF fields are VipsRefString, not plain strings: get_as_string converts any type and allocates.
        var value: UnsafeMutablePointer<CChar>?
        guard vips_image_get_as_string(pointer, field, &value) == 0, let value else {
            _ = Vips.takeErrorBuffer()
            return nil
        }
        defer { g_free(value) }
        return String(cString: value)
    }

    /// An integer field such as "orientation", or nil.
    public func int(_ field: String) -> Int? {
        guard has(field) else { return nil }
        var value: Int32 = 0
        guard vips_image_get_int(pointer, field, &value) == 0 else {
            _ = Vips.takeErrorBuffer()
            return nil
        }
        return Int(value)
    }

    /// A binary field such as "xmp-data" or "icc-profile-data", copied, or nil.
    public func blob(_ field: String) -> [UInt8]? {
        guard has(field) else { return nil }
        var data: UnsafeRawPointer?
        var length = 0
        guard vips_image_get_blob(pointer, field, &data, &length) == 0, let data else {
            _ = Vips.takeErrorBuffer()
            return nil
        }
        return Array(UnsafeRawBufferPointer(start: data, count: length))
    }

    /// The size in bytes of a binary field, without copying it (0 when absent).
    public func blobSize(_ field: String) -> Int {
        guard has(field) else { return 0 }
        var data: UnsafeRawPointer?
        var length = 0
        guard vips_image_get_blob(pointer, field, &data, &length) == 0 else {
            _ = Vips.takeErrorBuffer()
            return 0
        }
        return length
    }

    /// The EXIF orientation, 1 to 8 (1 when absent or out of range).
    public var orientation: Int {
        let value = int("orientation") ?? 1
        return (1...8).contains(value) ? value : 1
    }

    /// The loader libvips chose, e.g. "jpegload_buffer".
    public var loader: String? { string("vips-loader") }

    /// Whether the pixels need a colour transform to become sRGB: an embedded profile, or a non-RGB colour space.
    public var needsColourTransform: Bool {
        if has("icc-profile-data") { return true }
        switch vips_image_get_interpretation(pointer) {
        case VIPS_INTERPRETATION_sRGB, VIPS_INTERPRETATION_B_W, VIPS_INTERPRETATION_RGB16,
             VIPS_INTERPRETATION_GREY16, VIPS_INTERPRETATION_MULTIBAND:
            return false
        default:
            return true
        }
    }

    /// Whether the pixels are CMYK.
    public var isCMYK: Bool { vips_image_get_interpretation(pointer) == VIPS_INTERPRETATION_CMYK }

    /// A copy whose metadata fields named by `shouldRemove` are gone (pixels are shared, not copied).
    public func removingFields(where shouldRemove: (String) -> Bool) throws -> Image {
        let copy = try derive("copy") { album_vips_copy(pointer, $0) }
        for name in copy.fieldNames where shouldRemove(name) {
            vips_image_remove(copy.pointer, name)
        }
        return copy
    }
}

extension Image {
    /// Whether the file is progressive (JPEG) or interlaced (PNG, GIF): its decoder holds whole-image buffers.
    public var isInterlaced: Bool { (int("interlaced") ?? 0) != 0 }
}
