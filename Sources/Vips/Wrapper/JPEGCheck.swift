internal import CJPEG
import System

/// libjpeg's own verdict on a JPEG's data: the check djpeg makes, which libvips 8.14's loader leaves out.
///
/// libvips' jpegload reads the scanlines and stops: it never calls `jpeg_finish_decompress` (jpeg2vips.c), so what
/// libjpeg only finds after the last scanline is never said, and a scan whose damage decodes as other pixels loads
/// without a word: 64 flipped bytes in a scan left "Corrupt JPEG data: 119 extraneous bytes before marker 0xd9" in
/// djpeg and nothing in libvips (issue 29). This decodes the file once more with libjpeg itself (`album_jpeg_check`
/// in `CJPEG`'s shim: all of its entropy-coded data at 1/8 scale, every row but the last skipped without its inverse
/// DCT, then up to the end-of-image marker), under an error manager of its own on the calling thread, so the words are this file's whatever else runs: no shared buffer, no attribution.
public enum JPEGCheck {
    /// Checks `bytes`, a JPEG. Returns when libjpeg decodes it to its end with no warning.
    /// - Throws: `DecoderDamage` with libjpeg's first warning or its error, word for word as djpeg prints it; a
    ///   `VipsError` whose reason is a memory shortage when libjpeg could not allocate (the machine, not the file).
    public static func check(_ bytes: FileBytes) throws {
        var message = [CChar](repeating: 0, count: Int(ALBUM_JPEG_MESSAGE_LENGTH))
        let outcome = bytes.withBytes { buffer in album_jpeg_check(buffer.baseAddress, buffer.count, &message) }
        guard outcome != ALBUM_JPEG_SOUND else { return }
        throw failure(outcome, words: words(message), file: bytes.path)
    }

    /// The error for a libjpeg outcome other than sound: "Insufficient memory (case N)" is a `VipsError` whose
    /// reason is a memory shortage (`VipsError.isMemoryShortage` knows libjpeg's words), the rest `DecoderDamage`.
    static func failure(_ outcome: Int32, words: String, file: String) -> any Error {
        outcome == ALBUM_JPEG_NO_MEMORY
            ? VipsError(operation: "libjpeg", message: words, file: file)
            : DecoderDamage(decoder: "libjpeg", words: words, file: file)
    }

    /// libjpeg's message buffer as text.
    static func words(_ message: [CChar]) -> String {
        String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether libvips loads `image` with its JPEG loader, the one this check stands beside.
    public static func applies(to image: Image) -> Bool {
        image.loader?.hasPrefix("jpegload") == true
    }
}

/// A decoder found a file's data damaged and said so in its own words (a warning or an error of libjpeg's, as
/// `JPEGCheck` collects them).
public struct DecoderDamage: Error, Sendable, CustomStringConvertible {
    /// The library that spoke, e.g. "libjpeg".
    public var decoder: String
    /// Its words, exactly: "Corrupt JPEG data: 119 extraneous bytes before marker 0xd9".
    public var words: String
    public var file: String?

    public init(decoder: String, words: String, file: String? = nil) {
        self.decoder = decoder
        self.words = words
        self.file = file
    }

    public var description: String { "\(decoder): \(words)" }
}
