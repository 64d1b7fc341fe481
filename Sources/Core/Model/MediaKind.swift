/// What a catalogue item is to a user: a photo (a still, a camera RAW, a Live or Motion Photo) or a video, as
/// `ls`, `show`, `--json`, the report and `select: {kind: …}` / `ls --kind` name it. It is the kind of its format's
/// row in the format table (`ImageFormat.mediaKind`), never stored.
public enum MediaKind: String, Sendable, CaseIterable {
    case photo, video
}

/// A selection's `kind`: the kind wanted, and the formats that are videos (the format table's video rows, which
/// Core does not know: the job file and `ls --kind` give them, `ImageFormat.selecting(_:)`).
public struct KindSelection: Sendable, Equatable {
    public var kind: MediaKind
    public var videoFormats: Set<String>

    public init(_ kind: MediaKind, videoFormats: Set<String>) {
        self.kind = kind
        self.videoFormats = videoFormats
    }

    /// Whether a photo of `format` is of the kind wanted.
    public func matches(format: String) -> Bool {
        videoFormats.contains(format) == (kind == .video)
    }
}
