/// What a video's header says, read by FFmpeg with no frame decoded: its best video stream and its container's tags.
public struct VideoFacts: Sendable, Equatable {
    /// The frame's size as stored (before rotation and sample aspect ratio).
    public var width: Int
    public var height: Int
    /// Degrees clockwise the stored frame is turned to be shown upright: 0, 90, 180 or 270 (the stream's display
    /// matrix, else its `rotate` tag).
    public var rotation: Int
    /// The sample (pixel) aspect ratio, numerator and denominator; 1:1 when the stream says none.
    public var sampleAspect: (Int, Int)
    /// The duration in seconds; 0 when the container does not say.
    public var duration: Double
    /// The codec's name as FFmpeg gives it: "h264", "hevc".
    public var codec: String
    /// Frames per second; 0 when FFmpeg cannot tell.
    public var frameRate: Double
    /// The capture time as the container's tag writes it (`com.apple.quicktime.creationdate`, else
    /// `creation_time`), unparsed.
    public var creationTime: String?
    /// The camera's maker and model tags (QuickTime's `com.apple.quicktime.make`/`model`, or `make`/`model`).
    public var make: String?
    public var model: String?
    /// Where it was taken, as the container's tag writes it (ISO 6709, `+48.8577+002.2950+035.000/`):
    /// `com.apple.quicktime.location.ISO6709`, else `location`; unparsed.
    public var location: String? = nil

    /// The frame's size as shown: rotated by `rotation`, the width stretched by the sample aspect ratio.
    public var shownSize: (width: Int, height: Int) {
        let (num, den) = sampleAspect
        let stretched = num > 0 && den > 0 && num != den ? max(1, Int((Double(width) * Double(num) / Double(den)).rounded())) : width
        return rotation == 90 || rotation == 270 ? (height, stretched) : (stretched, height)
    }

    public static func == (lhs: VideoFacts, rhs: VideoFacts) -> Bool {
        lhs.width == rhs.width && lhs.height == rhs.height && lhs.rotation == rhs.rotation
            && lhs.sampleAspect == rhs.sampleAspect && lhs.duration == rhs.duration && lhs.codec == rhs.codec
            && lhs.frameRate == rhs.frameRate && lhs.creationTime == rhs.creationTime && lhs.make == rhs.make
            && lhs.model == rhs.model && lhs.location == rhs.location
    }
}

/// One decoded frame, packed RGB, 8 bits a sample, row by row (`width * 3` bytes a row).
public struct VideoFrame: Sendable {
    public var width: Int
    public var height: Int
    public var bytes: [UInt8]
    /// The frame's time in seconds from the start of the stream.
    public var time: Double
}
