import Raw
import System
import Vips

/// Camera RAWs through libraw (`Raw`): the embedded JPEG preview when there is one, decoded by libvips and turned by
/// the RAW's own orientation (libraw's `flip`, not the preview's EXIF); otherwise libraw's own decode (the camera's
/// white balance, sRGB, 8 bits), handed to libvips as memory.
public struct RawDecoder: ImageDecoder {
    public init() {}

    public func open(_ bytes: FileBytes, sequential: Bool, failOn: FailOn, shrink: Int) throws -> Image {
        let raw = try RawFile(bytes)
        if raw.identity.preview?.kind == .jpeg, case .jpeg(let jpeg) = try raw.preview() {
            let preview = try FileBytes(bytes: jpeg, path: bytes.path)
            return try Image.open(preview, sequential: sequential, failOn: failOn, jpegShrink: shrink)
                .setting("orientation", to: raw.identity.orientation)
        }
        let pixels = try raw.decode(halfSize: false)
        return try Image.fromPixels(pixels.bytes, width: pixels.width, height: pixels.height, bands: pixels.bands)
    }
}
