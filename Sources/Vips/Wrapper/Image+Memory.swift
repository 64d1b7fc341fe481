internal import CVips

extension Image {
    /// The image computed now into one memory buffer, metadata kept (`vips_image_copy_memory`): every pixel is
    /// decoded here, so its loader's warnings and failures happen inside this call, and the result holds no
    /// pipeline and no reference to the bytes it was loaded from.
    ///
    /// For a small image that several outputs derive from (a photo's shared decode, `LookRenderer+Shared`): each
    /// derivation reads these pixels instead of decoding the original again. The pixels are computed outside
    /// `ProgramLock`, as a save computes them; the call builds no operation.
    public func inMemory() throws -> Image {
        guard let copy = vips_image_copy_memory(pointer) else {
            throw VipsError(operation: "copy_memory", message: Vips.takeErrorBuffer())
        }
        return Image(copy, source: nil)
    }
}
