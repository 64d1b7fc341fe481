import Catalogue
import Media

extension ReportPage {
    /// A video's card says so after its size: " · video 3.0 s hevc" (`ImageFormat.kindText`); a photo's says nothing
    /// more. Album's own words, no text from the file.
    static func kind(of photo: PhotoRecord) -> String {
        ImageFormat.mediaKind(of: photo.format) == .video
            ? " · " + ImageFormat.kindText(format: photo.format, duration: photo.duration, codec: photo.codec) : ""
    }
}
