import Vips

extension LookRenderer {
    /// What a rendering of the image whose header is `header` reserves from the run's memory budget, in the budget's
    /// unit: a decoded pixel of 8-bit RGB, 3 bytes (docs/scheduler.md, "Memory budget").
    ///
    /// The decoder's whole-image buffer (`Image.decoderBufferBytes`: a progressive JPEG's coefficients, an
    /// interlaced PNG's pixels), plus the upright image itself when the rendering rotates it (`wholeImage`: a
    /// rotation reads the pixels out of order, so libvips holds them all).
    package static func reservation(for header: Image, wholeImage: Bool) -> Int {
        reservation(decoderBytes: header.decoderBufferBytes) + (wholeImage ? header.width * header.height : 0)
    }

    /// A decoder buffer of `bytes`, in the budget's unit.
    package static func reservation(decoderBytes bytes: Int) -> Int { (bytes + 2) / 3 }
}
