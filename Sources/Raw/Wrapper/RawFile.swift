internal import CRaw
import Foundation
import System

/// One camera RAW opened by libraw from a file's bytes: identified at once (headers only, no pixel unpacked), its
/// embedded preview or its sensor data decoded on request.
///
/// It owns one `libraw_data_t` and closes it in `deinit`; libraw reads the bytes in place, so it keeps them alive.
/// Not `Sendable`: a libraw handle is used by one thread at a time (each worker opens its own; libraw_r is the
/// thread-safe build of the library, so handles on different threads are independent).
public final class RawFile {
    private let handle: UnsafeMutablePointer<libraw_data_t>
    private let bytes: FileBytes
    /// What identify read.
    public let identity: RawIdentity

    /// libraw's version, "0.20.2" (`libraw_versionNumber`; `libraw_version` adds "-Release").
    public static var version: String {
        let number = Int(libraw_versionNumber())
        return "\(number >> 16).\(number >> 8 & 0xFF).\(number & 0xFF)"
    }

    /// Opens `bytes` with libraw's identify (`libraw_open_buffer`): headers only.
    /// - Throws: `RawError` naming the file and libraw's words; `isUnsupported` when the bytes are not a RAW libraw
    ///   knows (a plain TIFF among them).
    public init(_ bytes: FileBytes) throws {
        guard let handle = album_raw_init() else {
            throw RawError(operation: "open it", code: -100007, message: String(cString: libraw_strerror(-100007)), file: bytes.path)
        }
        let status = bytes.withBytes { buffer in
            libraw_open_buffer(handle, UnsafeMutableRawPointer(mutating: buffer.baseAddress), buffer.count)
        }
        guard status == LIBRAW_SUCCESS.rawValue else {
            libraw_close(handle)
            throw RawError(operation: "open it", code: status, message: String(cString: libraw_strerror(status)), file: bytes.path)
        }
        self.handle = handle
        self.bytes = bytes
        self.identity = RawFile.identity(of: handle)
    }

    deinit { libraw_close(handle) }

    /// The embedded preview, unpacked (`libraw_unpack_thumb`): a JPEG's bytes as stored in the file (copied once,
    /// from libraw's buffer, with no Exif segment added: the RAW's orientation is the caller's to apply), or a
    /// bitmap's pixels (`libraw_dcraw_make_mem_thumb`).
    /// - Throws: `RawError` when libraw cannot unpack it (none, or damaged).
    public func preview() throws -> RawPreview {
        try check("unpack its preview", libraw_unpack_thumb(handle))
        let thumbnail = handle.pointer(to: \.thumbnail)!
        if thumbnail.pointee.tformat == LIBRAW_THUMBNAIL_JPEG, let start = thumbnail.pointee.thumb {
            let count = Int(thumbnail.pointee.tlength)
            do {
                return .jpeg(try FileBytes(copying: UnsafeRawBufferPointer(start: start, count: count), path: bytes.path))
            } catch {
                throw self.error("unpack its preview", LIBRAW_UNSUFFICIENT_MEMORY.rawValue)
            }
        }
        var status: Int32 = 0
        guard let image = libraw_dcraw_make_mem_thumb(handle, &status) else {
            throw error("unpack its preview", status == 0 ? -100007 : status)
        }
        defer { libraw_dcraw_clear_mem(image) }
        guard image.pointee.type == LIBRAW_IMAGE_BITMAP, image.pointee.bits == 8 else {
            throw error("unpack its preview", LIBRAW_UNSUPPORTED_THUMBNAIL.rawValue)
        }
        return .bitmap(RawPixels(bytes: RawFile.data(of: image), width: Int(image.pointee.width),
                                 height: Int(image.pointee.height), bands: Int(image.pointee.colors)))
    }

    /// Decodes the sensor data (`libraw_unpack`, `libraw_dcraw_process`, `libraw_dcraw_make_mem_image`): the camera's
    /// white balance, sRGB, 8 bits per sample, turned upright by the RAW's own orientation.
    /// - Parameter halfSize: each 2×2 block of the sensor becomes one pixel (no demosaicing), a quarter of the work.
    /// - Throws: `RawError` in libraw's words when the data is damaged, truncated or of a kind libraw cannot decode.
    public func decode(halfSize: Bool) throws -> RawPixels {
        handle.pointee.params.use_camera_wb = 1
        handle.pointee.params.output_color = 1  // sRGB
        handle.pointee.params.output_bps = 8
        handle.pointee.params.half_size = halfSize ? 1 : 0
        try check("unpack it", libraw_unpack(handle))
        try check("process it", libraw_dcraw_process(handle))
        var status: Int32 = 0
        guard let image = libraw_dcraw_make_mem_image(handle, &status) else {
            throw error("process it", status == 0 ? -100007 : status)
        }
        defer { libraw_dcraw_clear_mem(image) }
        guard image.pointee.type == LIBRAW_IMAGE_BITMAP, image.pointee.bits == 8 else {
            throw error("process it", LIBRAW_UNSPECIFIED_ERROR.rawValue)
        }
        return RawPixels(bytes: RawFile.data(of: image), width: Int(image.pointee.width),
                         height: Int(image.pointee.height), bands: Int(image.pointee.colors))
    }

    private func check(_ operation: String, _ status: Int32) throws {
        guard status == LIBRAW_SUCCESS.rawValue else { throw error(operation, status) }
    }

    private func error(_ operation: String, _ status: Int32) -> RawError {
        RawError(operation: operation, code: status, message: String(cString: libraw_strerror(status)), file: bytes.path)
    }

    private static func data(of image: UnsafeMutablePointer<libraw_processed_image_t>) -> [UInt8] {
        let count = Int(image.pointee.data_size)
        return withUnsafeMutablePointer(to: &image.pointee.data) { start in
            start.withMemoryRebound(to: UInt8.self, capacity: count) { Array(UnsafeBufferPointer(start: $0, count: count)) }
        }
    }

    /// What identify read, field by field through the handle: `libraw_data_t` is about 380 KB, never copied whole.
    private static func identity(of handle: UnsafeMutablePointer<libraw_data_t>) -> RawIdentity {
        // libraw sets the preview's kind (`tformat`) only when it unpacks it; identify gives its size.
        let data = UnsafePointer(handle)
        let thumbnail = data.pointee.thumbnail
        let preview: RawPreviewInfo? = thumbnail.tlength > 0 && thumbnail.twidth > 0 && thumbnail.theight > 0
            ? RawPreviewInfo(width: Int(thumbnail.twidth), height: Int(thumbnail.theight), bytes: Int(thumbnail.tlength))
            : nil
        let lens = [text(data.pointee.lens.Lens), text(data.pointee.lens.makernotes.Lens)].first { !$0.isEmpty }
        let make = text(data.pointee.idata.normalized_make)
        return RawIdentity(make: make.isEmpty ? text(data.pointee.idata.make) : make, model: text(data.pointee.idata.model),
                           isDNG: data.pointee.idata.dng_version != 0, lens: lens, timestamp: Int(data.pointee.other.timestamp),
                           width: Int(data.pointee.sizes.width), height: Int(data.pointee.sizes.height),
                           orientation: RawIdentity.orientation(flip: Int(data.pointee.sizes.flip)), preview: preview)
    }

    /// A C `char[N]` field as text, up to its NUL, trimmed.
    private static func text<T>(_ field: T) -> String {
        withUnsafeBytes(of: field) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }
}

/// An embedded preview as libraw unpacks it.
public enum RawPreview: Sendable {
    /// A JPEG's bytes, as stored, labelled with the RAW's path.
    case jpeg(FileBytes)
    /// Pixels, 8 bits per sample.
    case bitmap(RawPixels)
}

/// Decoded pixels: `bands` interleaved 8-bit samples, row by row.
public struct RawPixels: Sendable {
    public var bytes: [UInt8]
    public var width: Int
    public var height: Int
    public var bands: Int
}
