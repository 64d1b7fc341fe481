internal import CVips
import System

extension Image {
    /// Decodes every pixel of `bytes` and keeps none: the question "can this file's pixels be decoded?" asked on
    /// its own, with no encoder, no disk and no other operation that could fail instead.
    ///
    /// A rendering is one lazy pipeline, so a decoder's failure surfaces in whichever operation pulled the pixels
    /// (usually the save). album asks this after a rendering of an original failed, to tell damage (the decoder
    /// fails here too) from everything else (it does not). The pipeline streams top to bottom (`vips_avg` over a
    /// sequential load), so it holds a few rows at a time, except for the formats that hold the whole image anyway.
    /// Call it inside `Attribution.attributed`, like every rendering, so that the error text is this file's own.
    /// With `failOn: .warning`, a JPEG is first checked by libjpeg itself (`JPEGCheck`), which reads what libvips'
    /// loader leaves unread.
    /// - Throws: `DecoderDamage` with libjpeg's words; the load's `VipsError`, with libvips' words.
    public static func decodeEveryPixel(of bytes: FileBytes, failOn: FailOn) throws {
        let image = try Image.open(bytes, sequential: true, failOn: failOn)
        if failOn == .warning, JPEGCheck.applies(to: image) { try JPEGCheck.check(bytes) }
        var mean = 0.0
        guard album_vips_avg(image.pointer, &mean) == 0 else {
            throw VipsError(operation: "load", message: Vips.takeErrorBuffer(), file: bytes.path)
        }
    }
}
