import System
import XMP

/// The movie a Motion Photo carries after its still (Google's and Samsung's: a JPEG or HEIC with an MP4 appended,
/// marked in its XMP; docs/catalogue.md, "Motion"): where its bytes are in the file. album records it on the photo and
/// copies those bytes for `export: {from: motion}`; it never decodes or re-encodes them.
public struct MotionPart: Sendable, Equatable {
    /// Where the movie starts, in bytes from the start of the file.
    public var offset: Int
    /// Its length in bytes.
    public var length: Int

    public init(offset: Int, length: Int) {
        self.offset = offset
        self.length = length
    }

    /// The movie the packet's marker places in `bytes`, checked: it lies inside the file, after its first bytes, and
    /// starts as an MP4 or QuickTime file does (a box whose type is `ftyp` at bytes 4–7). Nil with no marker; a
    /// problem, in words, when the marker places nothing that is a movie (the still is imported all the same).
    public static func find(_ marker: XMPMotion?, in bytes: FileBytes) -> (MotionPart?, String?) {
        guard let marker else { return (nil, nil) }
        let size = bytes.count
        let offset = size - marker.fromEnd
        guard marker.fromEnd <= size, offset > 0, marker.length <= marker.fromEnd else {
            return (nil, "its XMP marks a Motion Photo whose movie is \(marker.length) bytes starting \(marker.fromEnd) bytes before the end, which does not fit in its \(size) bytes; no motion part recorded")
        }
        let type = bytes.withBytes { raw in Array(raw[(offset + 4)..<min(offset + 8, size)]) }
        guard type == Array("ftyp".utf8) else {
            return (nil, "its XMP marks a Motion Photo whose movie starts at byte \(offset), but no MP4 starts there (no 'ftyp' box); no motion part recorded")
        }
        return (MotionPart(offset: offset, length: marker.length), nil)
    }
}
