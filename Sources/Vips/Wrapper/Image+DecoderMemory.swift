internal import CVips
import System

extension Image {
    /// What `decoderBufferBytes` will be for the JPEG whose first bytes are `start`, from its frame header alone,
    /// before libvips opens it: a progressive JPEG's coefficient buffer, 0 for a baseline one; nil when `start`
    /// holds no frame header (another format, or a header beyond `start`).
    public static func decoderBufferBytes(fromStartOf start: FileBytes) -> Int? {
        guard let frame = JPEGFrame(start) else { return nil }
        return frame.isProgressive ? 2 * frame.coefficientCount : 0
    }

    /// The bytes the decoder of this (still undecoded) image holds for the whole image while it decodes, whatever
    /// the output scale; 0 for a decoder that streams.
    ///
    /// - A progressive JPEG: libjpeg keeps every DCT coefficient, 2 bytes each, each component at its own sampling,
    ///   read from the file's frame header (`JPEGFrame`): 6 bytes a pixel at 4:4:4, 4 at 4:2:2, 3 at 4:2:0, 2 for
    ///   greyscale, 8 for CMYK. The corpus' heaviest, 4096×4096 at 4:4:4, holds 101 MB even when it shrinks on load
    ///   to 1/8 (Benchmarks/RESULTS.md, "What one photo needs").
    /// - An interlaced PNG (or GIF): the whole decoded image, every band at its sample size.
    /// - A baseline JPEG, a plain PNG: 0, they decode a strip at a time.
    public var decoderBufferBytes: Int {
        guard isInterlaced else { return 0 }
        let pixels = width * height
        guard loader?.hasPrefix("jpegload") == true else {
            return pixels * bands * Int(vips_format_sizeof(vips_image_get_format(pointer)))
        }
        if let bytes = source as? FileBytes, let frame = JPEGFrame(bytes) { return 2 * frame.coefficientCount }
        // No frame header to read (an image not opened from a file's bytes): every plane counted at full
        // resolution, the most it can be, since libvips' label calls every subsampled file 4:2:0. 2 bytes each.
        return pixels * bands * 2
    }
}
