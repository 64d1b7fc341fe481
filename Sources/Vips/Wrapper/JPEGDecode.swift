internal import CJPEG
internal import CVips
import System

/// A JPEG decoded once, by libjpeg itself, into the pixels libvips' `jpegload` gives and libjpeg's own verdict on
/// the whole file: what `JPEGCheck` beside `jpegload` made with two decodes (issue 35).
///
/// `album_jpeg_decoder_open` in `CJPEG`'s shim decodes with the check's source and error manager, so a damaged
/// file's warning and its words are the check's. `album_vips_rows_image` in `CVips`' shim gives libvips the rows a
/// strip at a time, in order, as `jpegload` does (a generate callback behind `vips_sequential`), with libjpeg's
/// settings `jpegload` keeps (the same `scale_denom`, `JDCT_ISLOW`, fancy upsampling, block smoothing, RGB or grey
/// out) and `jpegload`'s own header fields (size, EXIF, XMP, ICC, orientation) copied from its header of the same
/// bytes. `verified` runs the pipeline, then entropy-decodes what the pipeline left (rows skipped, as the check
/// skips them) and reads to the end-of-image marker, so the verdict covers the file as the check's did, before
/// anything is kept. CMYK, YCCK, RGB-coded and arithmetic-coded files are not taken (`open` returns nil): they stay
/// on `jpegload` with `JPEGCheck`. `JPEGDecodeTests` compares the pixels and fields with `jpegload`'s.
public final class JPEGDecode: @unchecked Sendable {
    // @unchecked: the decoder is used by libvips' pipeline (under vips_sequential's lock) while `verified`'s body
    // runs, then by `verified` alone, on the calling thread.
    /// The decoded image, `jpegload`'s size and fields. Pixels are decoded when a pipeline asks for them.
    public let image: Image
    /// Owned by `image`'s first stage, which frees it when it closes: valid while `image` lives.
    private let decoder: UnsafeMutablePointer<album_jpeg_decoder>
    private let path: String

    private init(image: Image, decoder: UnsafeMutablePointer<album_jpeg_decoder>, path: String) {
        self.image = image
        self.decoder = decoder
        self.path = path
    }

    /// Opens `bytes` for a decode at 1/`shrink` (1, 2, 4 or 8); `header` is `jpegload`'s (unread) image of the same
    /// bytes at full size, whose fields the image takes: jpegload sets none of them from its shrink (jpeg2vips.c,
    /// v8.14.1), so they are those of its image at 1/`shrink` (`JPEGDecodeTests` compares them). Nil when the file
    /// is one to leave to `jpegload` and `JPEGCheck`.
    /// - Throws: `DecoderDamage` with libjpeg's words when its header (or, for a progressive file, any scan) is
    ///   damaged; a `VipsError` when libjpeg could not allocate or libvips could not build the image.
    public static func open(_ bytes: FileBytes, shrink: Int, header: Image) throws -> JPEGDecode? {
        var message = [CChar](repeating: 0, count: Int(ALBUM_JPEG_MESSAGE_LENGTH))
        var decoder: UnsafeMutablePointer<album_jpeg_decoder>?
        var size = [Int32](repeating: 0, count: 7)
        let outcome = bytes.withBytes { buffer in
            album_jpeg_decoder_open(buffer.baseAddress, buffer.count, Int32(shrink), &decoder, &size, &message)
        }
        guard outcome == ALBUM_JPEG_SOUND, let decoder else {
            if outcome == ALBUM_JPEG_UNSUPPORTED { return nil }
            throw JPEGCheck.failure(outcome, words: JPEGCheck.words(message), file: bytes.path)
        }
        // jpegload's image of the same file at full size, with as many bands.
        guard [header.width, header.height, header.bands] == [Int(size[5]), Int(size[6]), Int(size[2])],
              size[0] >= size[3], size[1] >= size[4] else {
            album_jpeg_decoder_release(decoder)
            return nil
        }
        var out: UnsafeMutablePointer<VipsImage>?
        let status = ProgramLock.building {
            album_vips_rows_image(header.pointer, size[0], size[1], size[3], size[4],
                                  album_jpeg_decoder_rows, album_jpeg_decoder_release, decoder, &out)
        }
        guard status == 0, let out else {
            if let out { ProgramLock.release(out) }
            throw VipsError(operation: "jpeg decode", message: Vips.takeErrorBuffer(), file: bytes.path)
        }
        return JPEGDecode(image: Image(out, source: bytes), decoder: decoder, path: bytes.path)
    }

    /// Runs `body`, the pipeline that reads `image`, then gives libjpeg's verdict on the whole file: when `body`
    /// failed because the decoder met damage, that damage (`DecoderDamage`, the check's words) instead of the
    /// pipeline's error; when it succeeded, the rest of the file decoded to its end-of-image marker, and its first
    /// warning or error thrown before `body`'s result is returned.
    public func verified<T>(_ body: () throws -> T) throws -> T {
        var message = [CChar](repeating: 0, count: Int(ALBUM_JPEG_MESSAGE_LENGTH))
        let result: T
        do {
            result = try body()
        } catch {
            let outcome = withExtendedLifetime(image) { album_jpeg_decoder_outcome(decoder, &message) }
            guard outcome == ALBUM_JPEG_SOUND else { throw JPEGCheck.failure(outcome, words: JPEGCheck.words(message), file: path) }
            throw error
        }
        let outcome = withExtendedLifetime(image) { album_jpeg_decoder_finish(decoder, &message) }
        guard outcome == ALBUM_JPEG_SOUND else { throw JPEGCheck.failure(outcome, words: JPEGCheck.words(message), file: path) }
        return result
    }
}
