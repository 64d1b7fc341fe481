internal import CAV
import Glibc

extension VideoFile {
    /// The demuxers FFmpeg may use: its QuickTime/MP4 family. A playlist or script it would also recognise (HLS,
    /// `ffconcat`) is refused, so no file can make FFmpeg read another.
    static let demuxers = "mov,mp4,m4a,3gp,3g2,mj2"

    /// Opens `path` for FFmpeg as a plain local file and nothing else: album opens it (read-only, without blocking,
    /// `O_NOCTTY`) and refuses anything but a regular file (`fstat` after the open, so a FIFO or a device is never
    /// read); FFmpeg then opens that very file through `file:/proc/self/fd/N` with `protocol_whitelist` `file` and
    /// `format_whitelist` `demuxers`, so a name that reads as a URL (`http:…`) is only ever a file's name.
    /// - Throws: `VideoError` naming the call: `open`/`fstat` in the system's words, a file that is not regular, or
    ///   `avformat_open_input` in FFmpeg's words.
    static func openInput(_ path: String) throws -> UnsafeMutablePointer<AVFormatContext> {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { throw VideoError(call: "open", code: -errno, message: String(cString: strerror(errno)), file: path) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw VideoError(call: "fstat", code: -errno, message: String(cString: strerror(errno)), file: path)
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw VideoError(call: "open", code: 0, message: "not a regular file (a FIFO, a device or a socket): album opens only "
                             + "regular files", file: path)
        }
        var options: OpaquePointer?
        defer { av_dict_free(&options) }
        for (key, value) in [("protocol_whitelist", "file"), ("format_whitelist", demuxers)] {
            let set = av_dict_set(&options, key, value, 0)
            guard set >= 0 else { throw VideoFile.error("av_dict_set", set, path) }
        }
        var opened: UnsafeMutablePointer<AVFormatContext>?
        let status = avformat_open_input(&opened, "file:/proc/self/fd/\(fd)", nil, &options)
        guard status >= 0, let format = opened else { throw VideoFile.error("avformat_open_input", status, path) }
        return format
    }
}
