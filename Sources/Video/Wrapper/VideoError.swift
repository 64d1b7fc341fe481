/// An FFmpeg call failed, or a video's header was refused: which call, on which file, and FFmpeg's own words
/// (`av_strerror`) or album's reason.
public struct VideoError: Error, Sendable, CustomStringConvertible {
    /// The FFmpeg call, "avformat_open_input", or what album refused ("the header").
    public var call: String
    /// FFmpeg's error code (an `AVERROR`), 0 when album refused the file itself.
    public var code: Int32
    /// FFmpeg's words for `code`, or album's reason.
    public var message: String
    /// The file FFmpeg was reading.
    public var file: String

    public init(call: String, code: Int32, message: String, file: String) {
        self.call = call
        self.code = code
        self.message = message
        self.file = file
    }

    /// The `call` of a header album refuses (a side over `VideoFile.maximumSide`, a duration over
    /// `VideoFile.maximumDuration`, no frame size): the file is not damaged, album will not decode it.
    public static let header = "the header"

    /// Whether album refused the header, rather than FFmpeg failing.
    public var isRefusal: Bool { call == VideoError.header }

    /// What went wrong, e.g. "FFmpeg 5.1 avformat_open_input: Invalid data found when processing input".
    public var reason: String { "FFmpeg \(VideoFile.version) \(call): \(message)" }

    public var description: String { "\(file): \(reason)" }
}
