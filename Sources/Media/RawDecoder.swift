import Core
import Raw
import System
import Vips

/// Camera RAWs through libraw (`Raw`).
///
/// The RAW's orientation is set on the preview explicitly: a preview's own Exif, when it has one, carries a
/// converter's orientation or none, which libvips would otherwise apply.
///
/// A rendering starts from the largest embedded JPEG preview when it is at least the rendition's size (and
/// `raw: preview`, the default): libvips loads it, shrinking on load, and it is turned by the RAW's own orientation
/// (libraw's `flip`, not the preview's EXIF). Otherwise libraw decodes the sensor data: the camera's white balance,
/// sRGB, 8 bits, at half size when that is still at least the rendition's size, handed to libvips as memory. Import
/// reads libraw's identify only. A RAW libraw cannot decode and with no usable preview is damaged, in libraw's words.
public struct RawDecoder: ImageDecoder {
    public init() {}

    public func open(_ bytes: FileBytes, sequential: Bool, failOn: FailOn, shrink: Int) throws -> Image {
        try source(bytes, for: DecodeRequest(atLeast: nil), failOn: failOn).open(sequential: sequential, failOn: failOn, shrink: shrink)
    }

    public func source(_ bytes: FileBytes, for request: DecodeRequest, failOn: FailOn) throws -> ImageSource {
        let raw = try opened(bytes)
        let identity = raw.identity
        let (w, h) = RawDecoder.upright(identity.width, identity.height, identity.orientation)
        let needed = request.atLeast ?? MinimumSize(width: w, height: h, both: true)
        var previewFailure: RawError?
        if request.policy.rawPreview, let info = identity.preview {
            let (pw, ph) = RawDecoder.upright(info.width, info.height, identity.orientation)
            if needed.isMet(width: pw, height: ph) {
                let provenance = "from the embedded preview (\(pw)×\(ph))"
                do {
                    switch try raw.preview() {
                    case .jpeg(let jpeg):
                        return ImageSource(.encoded(jpeg, loaderOptions: []),
                                           orientation: identity.orientation, provenance: provenance)
                    case .bitmap(let pixels):
                        let image = try Image.fromPixels(pixels.bytes, width: pixels.width, height: pixels.height, bands: pixels.bands)
                        return ImageSource(.decoded(image), orientation: identity.orientation, provenance: provenance)
                    }
                } catch let error as RawError {
                    previewFailure = error  // decode the sensor data instead
                }
            }
        }
        let half = needed.isMet(width: w / 2, height: h / 2)
        let preview = previewFailure.map { "; its embedded preview: \($0.message)" }
            ?? (identity.preview == nil ? ", and it has no embedded preview" : "")
        // Decoded when the rendering has reserved what libraw holds meanwhile: the sensor data (2 bytes a photosite),
        // its working image (8 bytes a pixel) and the 8-bit output (3), at a quarter of the pixels at half size.
        let decodedPixels = half ? w * h / 4 : w * h
        let decode: @Sendable () throws -> ImageSource.Decoded = {
            do {
                let pixels = try RawFile(bytes).decode(halfSize: half)
                return ImageSource.Decoded(image: try Image.fromPixels(pixels.bytes, width: pixels.width, height: pixels.height,
                                                                      bands: pixels.bands))
            } catch let error as RawError {
                throw DamagedImage("damaged RAW data: \(error.reason)\(preview)")
            }
        }
        return ImageSource(.deferred(pixels: (2 * w * h + 11 * decodedPixels + 2) / 3, decode: decode), orientation: 1,
                           provenance: "decoded by libraw \(RawFile.version)" + (half ? " at half size" : ""))
    }

    public func header(_ bytes: FileBytes, failOn: FailOn) throws -> PhotoHeader {
        let identity = try opened(bytes).identity
        let (w, h) = RawDecoder.upright(identity.width, identity.height, identity.orientation)
        let camera = identity.model.lowercased().hasPrefix(identity.make.lowercased()) || identity.make.isEmpty
            ? identity.model : "\(identity.make) \(identity.model)"
        let metadata = PhotoMetadata(width: w, height: h, orientation: identity.orientation, taken: identity.taken,
                                     camera: camera.isEmpty ? nil : camera, caption: nil, hasGPS: false, lens: identity.lens)
        return PhotoHeader(storedWidth: identity.width, storedHeight: identity.height, metadata: metadata)
    }

    /// libraw's decode of the sensor data, else the embedded preview's every pixel: damaged only when neither decodes
    /// (a RAW from a body newer than libraw 0.20.2, or an iPhone ProRAW, may have only its preview).
    public func decodeEveryPixel(_ bytes: FileBytes, failOn: FailOn) throws {
        let any = MinimumSize(width: 1, height: 1, both: true)
        do {
            _ = try source(bytes, for: DecodeRequest(atLeast: any, policy: SourcePolicy(rawPreview: false)), failOn: failOn).resolved()
        } catch let damage as DamagedImage {
            guard let preview = try source(bytes, for: DecodeRequest(atLeast: any), failOn: failOn).bytes else { throw damage }
            try Image.decodeEveryPixel(of: preview, failOn: failOn)
        }
    }

    /// Opens `bytes` with libraw's identify; a RAW it cannot identify is damaged, in libraw's words.
    private func opened(_ bytes: FileBytes) throws -> RawFile {
        do {
            return try RawFile(bytes)
        } catch let error as RawError {
            throw DamagedImage("damaged RAW data: \(error.reason)")
        }
    }

    private static func upright(_ width: Int, _ height: Int, _ orientation: Int) -> (Int, Int) {
        orientation >= 5 ? (height, width) : (width, height)
    }
}
