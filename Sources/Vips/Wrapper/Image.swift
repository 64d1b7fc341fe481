internal import CVips
import System

/// One libvips image. It owns a reference to its `VipsImage` and releases it in `deinit`.
///
/// libvips images are immutable once built, and libvips documents them as safe to share across threads; an
/// `Image` adds no mutable state, hence `@unchecked Sendable`. An image built from memory keeps that memory alive
/// (`source`) for as long as any image of its pipeline exists, since libvips decodes lazily.
public final class Image: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<VipsImage>
    /// What the pixels come from and must outlive them: the `FileBytes` an opened image decodes, or the images a
    /// composition reads.
    let source: AnyObject?

    init(_ pointer: UnsafeMutablePointer<VipsImage>, source: AnyObject?) {
        self.pointer = pointer
        self.source = source
    }

    deinit { ProgramLock.release(pointer) }

    public var width: Int { Int(vips_image_get_width(pointer)) }
    public var height: Int { Int(vips_image_get_height(pointer)) }
    public var bands: Int { Int(vips_image_get_bands(pointer)) }

    /// Whether the image has an alpha channel.
    public var hasAlpha: Bool { vips_image_hasalpha(pointer) != 0 }

    /// Opens an image from a file's bytes. Only the header is decoded until pixels are needed.
    /// - Parameters:
    ///   - sequential: read top to bottom once (streaming); right for every album pipeline but metadata.
    ///   - jpegShrink: 2, 4 or 8 to decode a JPEG at that fraction of its size (libjpeg's DCT scaling); 1 for full
    ///     size. Only for bytes libvips loads with `jpegload`: other loaders reject the option.
    ///   - loaderOptions: more of the loader's own options, e.g. `["thumbnail=TRUE"]` for heifload's embedded
    ///     thumbnail.
    public static func open(_ bytes: FileBytes, sequential: Bool, failOn: FailOn, jpegShrink: Int = 1,
                            loaderOptions: [String] = []) throws -> Image {
        try Vips.started()
        let options = ((jpegShrink > 1 ? ["shrink=\(jpegShrink)"] : []) + loaderOptions).joined(separator: ",")
        let pointer = bytes.withBytes { buffer in
            ProgramLock.building {
                album_vips_new_from_buffer(buffer.baseAddress, buffer.count, options, sequential ? 1 : 0, failOn.rawValue)
            }
        }
        guard let pointer else {
            throw VipsError(operation: "load", message: Vips.takeErrorBuffer(), file: bytes.path)
        }
        return Image(pointer, source: bytes)
    }

    /// Builds a result image from a libvips call that writes `out`, checking its return code where it is made.
    func derive(_ operation: String, _ call: (UnsafeMutablePointer<UnsafeMutablePointer<VipsImage>?>) -> Int32) throws -> Image {
        var out: UnsafeMutablePointer<VipsImage>?
        let status = ProgramLock.building { call(&out) }
        guard status == 0, let out else {
            if let out { ProgramLock.release(out) }
            throw VipsError(operation: operation, message: Vips.takeErrorBuffer())
        }
        return Image(out, source: source)
    }
}

/// How much damage a loader tolerates before it fails (libvips' `VipsFailOn`).
public enum FailOn: Int32, Sendable {
    /// Never fail: damaged data decodes as grey. album never uses this for real work.
    case none = 0
    /// Fail on truncated data.
    case truncated = 1
    /// Fail on truncation and on serious decoder errors.
    case error = 2
    /// Fail on anything, even warnings.
    case warning = 3

    /// libvips' nickname for the level, as used in option strings ("truncated").
    public var name: String {
        switch self {
        case .none: "none"
        case .truncated: "truncated"
        case .error: "error"
        case .warning: "warning"
        }
    }
}
