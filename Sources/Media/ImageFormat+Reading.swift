import System

extension ImageFormat {
    /// How many first bytes album holds of a file it does not read whole: more than any signature or `ftyp` box
    /// sniffing looks at.
    static let headBytes = 64 * 1024

    /// Reads an original as its format asks: whole (`FileBytes(path:)`, up to its 2 GiB cap), or, when its first
    /// bytes sniff as a format that `opensByPath` (a video), hashed as a stream with only its first 64 KiB held
    /// (`FileBytes(path:streamingHead:)`), so a video of any size imports in constant memory and FFmpeg reads the
    /// file itself. Either way only a regular file is opened.
    /// - Throws: `FileBytesError` naming the path and the reason; `SystemError` when libcrypto fails.
    public static func readOriginal(_ path: String, in formats: [ImageFormat] = registered) throws -> FileBytes {
        let byPath = formats.filter(\.opensByPath)
        if !byPath.isEmpty, case .success = sniff(try FileBytes(path: path, firstBytes: 64).prefix(64), in: byPath) {
            return try FileBytes(path: path, streamingHead: headBytes)
        }
        return try FileBytes(path: path)
    }
}
