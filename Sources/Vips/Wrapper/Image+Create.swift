internal import CVips

extension Image {
    /// An 8-bit image from interleaved pixel values (`bands` values per pixel, rows top to bottom).
    /// Used to build test fixtures and generated images (contact sheets, swatches) in memory.
    public static func fromPixels(_ pixels: [UInt8], width: Int, height: Int, bands: Int) throws -> Image {
        try Vips.started()
        precondition(pixels.count == width * height * bands, "pixel count does not match width × height × bands")
        let pointer = pixels.withUnsafeBytes {
            vips_image_new_from_memory_copy($0.baseAddress, $0.count, Int32(width), Int32(height), Int32(bands), VIPS_FORMAT_UCHAR)
        }
        guard let pointer else { throw VipsError(operation: "new_from_memory", message: Vips.takeErrorBuffer()) }
        let image = Image(pointer, source: nil)
        let space: VipsInterpretation = bands >= 3 ? VIPS_INTERPRETATION_sRGB : VIPS_INTERPRETATION_B_W
        return try image.derive("copy") { album_vips_copy_interpretation(image.pointer, $0, Int32(space.rawValue)) }
    }

    /// A copy with a string metadata field set, e.g. `"exif-ifd2-DateTimeOriginal"` (written into EXIF on save).
    public func setting(_ field: String, to value: String) throws -> Image {
        let copy = try derive("copy") { album_vips_copy(pointer, $0) }
        vips_image_set_string(copy.pointer, field, value)
        return copy
    }

    /// A copy with an integer metadata field set, e.g. `"orientation"`.
    public func setting(_ field: String, to value: Int) throws -> Image {
        let copy = try derive("copy") { album_vips_copy(pointer, $0) }
        vips_image_set_int(copy.pointer, field, Int32(value))
        return copy
    }

    /// A copy with a binary metadata field set, e.g. `"icc-profile-data"`.
    public func setting(_ field: String, to blob: [UInt8]) throws -> Image {
        let copy = try derive("copy") { album_vips_copy(pointer, $0) }
        blob.withUnsafeBytes { buffer in
            let bytes = g_memdup2(buffer.baseAddress, gsize(buffer.count))
            vips_image_set_blob(copy.pointer, field, { data, _ in g_free(data); return 0 }, bytes, buffer.count)
        }
        return copy
    }

    /// The pixel values of a small image, interleaved, as 8-bit (for checks; decodes the whole image).
    public func pixels() throws -> [UInt8] {
        let image = vips_image_get_format(pointer) == VIPS_FORMAT_UCHAR
            ? self : try derive("cast") { album_vips_cast(pointer, $0, Int32(VIPS_FORMAT_UCHAR.rawValue)) }
        var length = 0
        guard let memory = vips_image_write_to_memory(image.pointer, &length) else {
            throw VipsError(operation: "write_to_memory", message: Vips.takeErrorBuffer())
        }
        defer { g_free(memory) }
        return Array(UnsafeRawBufferPointer(start: memory, count: length))
    }

    /// The pixel values of a small image, interleaved, as doubles without rounding (e.g. Lab values; for checks
    /// and for colours computed by libvips; decodes the whole image).
    public func values() throws -> [Double] {
        let image = try derive("cast") { album_vips_cast(pointer, $0, Int32(VIPS_FORMAT_DOUBLE.rawValue)) }
        var length = 0
        guard let memory = vips_image_write_to_memory(image.pointer, &length) else {
            throw VipsError(operation: "write_to_memory", message: Vips.takeErrorBuffer())
        }
        defer { g_free(memory) }
        return Array(UnsafeBufferPointer(start: memory.assumingMemoryBound(to: Double.self), count: length / MemoryLayout<Double>.size))
    }
}
