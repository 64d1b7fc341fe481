internal import CVips

extension Image {
    /// A grid of `images`, `across` per row, each centred in a cell as large as the largest, `gap` pixels apart on
    /// white (libvips `arrayjoin`). Images must share a band count and format (use `srgb8` first).
    public static func grid(_ images: [Image], across: Int, gap: Int) throws -> Image {
        precondition(!images.isEmpty, "a grid needs at least one image")
        var pointers: [UnsafeMutablePointer<VipsImage>?] = images.map { $0.pointer }
        var out: UnsafeMutablePointer<VipsImage>?
        let status = pointers.withUnsafeMutableBufferPointer { pointers in
            ProgramLock.building {
                album_vips_arrayjoin(pointers.baseAddress, Int32(images.count), &out, Int32(max(1, across)), Int32(gap))
            }
        }
        guard status == 0, let out else {
            if let out { ProgramLock.release(out) }
            throw VipsError(operation: "arrayjoin", message: Vips.takeErrorBuffer())
        }
        // The grid reads its inputs lazily: keep them alive as long as it lives.
        return Image(out, source: images as AnyObject)
    }
}
