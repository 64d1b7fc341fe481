import System
import Vips

/// How album turns a format's bytes into an image: the one place an original is opened (`ImageFormat.open`).
///
/// Each row of the format table names its decoder. Today's one implementation is libvips' loaders
/// (`VipsLoader`); a new kind of media (RAW through libraw, a HEIC's preview, a video's poster frame) implements
/// this in a file of its own and names it in its formats' rows.
public protocol ImageDecoder: Sendable {
    /// Opens `bytes`: the header at once, pixels when a pipeline asks for them.
    /// - Parameters:
    ///   - sequential: pixels are read top to bottom once (streaming).
    ///   - failOn: how much damage the decoder tolerates before it fails.
    ///   - shrink: 2, 4 or 8 to decode at that fraction of the size (a JPEG's DCT scaling, which album asks only of
    ///     a JPEG); 1 for full size.
    func open(_ bytes: FileBytes, sequential: Bool, failOn: FailOn, shrink: Int) throws -> Image
}

/// libvips' own loaders, chosen by libvips from the bytes (`vips_image_new_from_buffer`).
public struct VipsLoader: ImageDecoder {
    public init() {}

    public func open(_ bytes: FileBytes, sequential: Bool, failOn: FailOn, shrink: Int) throws -> Image {
        try Image.open(bytes, sequential: sequential, failOn: failOn, jpegShrink: shrink)
    }
}
