/// What a video's header says beyond a photo's facts (`PhotoMetadata.video`), read by `VideoDecoder.header` with no
/// frame decoded, and recorded in the catalogue's `duration`, `codec`, `frame_rate`, `latitude` and `longitude`.
public struct VideoMetadata: Sendable, Equatable {
    /// Seconds; 0 when the container does not say.
    public var duration: Double
    /// FFmpeg's name of the video stream's codec: "h264", "hevc".
    public var codec: String
    /// Frames per second; nil when FFmpeg cannot tell.
    public var frameRate: Double?
    /// Where it was taken: the container's ISO 6709 tag, when it holds a valid point (`ISO6709`); else nil.
    public var place: ISO6709?

    public init(duration: Double, codec: String, frameRate: Double?, place: ISO6709?) {
        self.duration = duration
        self.codec = codec
        self.frameRate = frameRate
        self.place = place
    }
}
