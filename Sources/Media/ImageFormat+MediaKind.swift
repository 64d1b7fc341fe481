import Core

extension ImageFormat {
    /// What an item of this format is to a user: a video for the format table's video rows, else a photo.
    public var mediaKind: MediaKind { kind == .video ? .video : .photo }

    /// The kind of an item whose catalogue row records `format` (a photo for a name the table no longer has).
    public static func mediaKind(of format: String) -> MediaKind {
        ImageFormat(rawValue: format)?.mediaKind ?? .photo
    }

    /// A selection's `kind` (`select: {kind: video}`, `ls --kind video`), with the table's video formats.
    public static func selecting(_ kind: MediaKind) -> KindSelection {
        KindSelection(kind, videoFormats: Set(registered.filter { $0.kind == .video }.map(\.rawValue)))
    }

    /// An item's kind in words, as `ls`'s `kind` cell and the report's cards show it: "photo", or a video's
    /// "video 3.0 s hevc" (its duration to a tenth of a second and its codec, where the catalogue has them).
    public static func kindText(format: String, duration: Double?, codec: String?) -> String {
        guard mediaKind(of: format) == .video else { return MediaKind.photo.rawValue }
        let seconds = duration.map { "\(secondsText($0)) s" }
        return (["video", seconds, codec].compactMap { $0 }).joined(separator: " ")
    }

    /// A duration to a tenth of a second, as `ls`, `show` and the report write it: "3.0", "12.5".
    public static func secondsText(_ seconds: Double) -> String {
        "\((seconds * 10).rounded() / 10)"
    }
}
