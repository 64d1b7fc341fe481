import Core
import System
import Video
import Vips

/// Videos (QuickTime/MOV, MP4/M4V) through FFmpeg's libraries (`Video`): a poster frame stands for the pixels.
///
/// The poster is the first of the frames at 10 %, 25 % and 50 % of the duration that is not nearly uniform (a
/// black fade, a blank screen: the standard deviation of a sampled grey under 4, or its mean under 10), else the
/// one at 50 %. Each candidate is the key frame at or before its time, decoded alone (one frame, not the frames
/// up to the time: a poster costs about one decode); when an earlier candidate was that same key frame (a stream
/// with few key frames, as desktop encoders write), the frame at the time itself, decoded up from the key frame.
/// A rendering's `poster:` (`SourcePolicy.poster`, a `PosterTime`) replaces the search with the frame at a time
/// itself, or the last key frame for a time past the end, said in the provenance.
/// It is turned upright by the stream's display rotation and stretched to square pixels by its sample aspect
/// ratio. Import reads the header only: the shown frame size, the capture time
/// (`com.apple.quicktime.creationdate`, else `creation_time`), the camera (make and model tags), the duration,
/// codec and frame rate, and the place (an ISO 6709 tag, `com.apple.quicktime.location.ISO6709` or `location`,
/// strictly parsed by `ISO6709`: one it cannot read is absent). FFmpeg opens the file by its path (`VideoFile`: a
/// regular file only, as a plain file); the `FileBytes` it is handed hold only the file's first bytes, as its row
/// `opensByPath` (`ImageFormat.readOriginal`). An HDR frame is tone-mapped to SDR by the wrapper (`ToneMap`). A
/// video FFmpeg cannot open or decode is damaged, in FFmpeg's words.
public struct VideoDecoder: ImageDecoder {
    public init() {}

    /// The poster frame, upright, square pixels.
    public func open(_ bytes: FileBytes, sequential: Bool, failOn: FailOn, shrink: Int) throws -> Image {
        try poster(bytes, choosing: .auto, shrink: { _ in shrink }).image
    }

    /// The poster, made smaller in its conversion when the rendering needs a fraction of it (a 240×240 thumbnail of
    /// a 1920×1080 clip converts the frame at 480×270), as a JPEG shrinks on load.
    ///
    /// The poster is decoded when the rendering has reserved what FFmpeg and the conversion hold meanwhile
    /// (`memoryNeed`), as a RAW's decode is: the header is read now, for the frame's size.
    public func source(_ bytes: FileBytes, for request: DecodeRequest, failOn: FailOn) throws -> ImageSource {
        let video = OpenedVideo(try VideoDecoder.damage { try VideoFile(path: bytes.path, reading: .header) })
        let shrink = VideoDecoder.shrink(shown: video.file.facts.shownSize, toMeet: request.atLeast)
        let choosing = request.policy.poster
        let decode: @Sendable () throws -> ImageSource.Decoded = {
            let (image, time, note) = try VideoDecoder.poster(of: video.file, choosing: choosing, shrink: { _ in shrink })
            return ImageSource.Decoded(image: image, provenance: "poster frame at \(VideoDecoder.seconds(time)) s"
                                       + (note.map { " (\($0))" } ?? ""))
        }
        return ImageSource(.deferred(pixels: VideoDecoder.memoryNeed(video.file.facts, shrink: shrink), decode: decode),
                           provenance: "poster frame")
    }

    /// What a poster's decode holds of the memory budget, in its unit (3 bytes): the decoder's frame and one more
    /// (3 bytes a pixel: 10-bit 4:2:0, the most a phone writes), and at the converted size the RGB frame, the
    /// 16-bit one an HDR frame is tone-mapped from, libvips' copy and an upright turn (15 bytes a pixel).
    static func memoryNeed(_ facts: VideoFacts, shrink: Int) -> Int {
        let (width, height) = facts.shownSize
        let out = max(1, width / max(1, shrink)) * max(1, height / max(1, shrink))
        return (2 * 3 * facts.width * facts.height + 15 * out + 2) / 3
    }

    /// The largest shrink of 2, 4 or 8 (a JPEG's) that keeps an upright `shown` frame at least `needed`; 1 when none
    /// does or the whole frame is asked for.
    static func shrink(shown: (width: Int, height: Int), toMeet needed: MinimumSize?) -> Int {
        guard let needed, needed.width > 0, needed.height > 0 else { return 1 }
        var shrink = 8
        while shrink > 1 && !needed.isMet(width: shown.width / shrink, height: shown.height / shrink) { shrink /= 2 }
        return shrink
    }

    public func header(_ bytes: FileBytes, failOn: FailOn) throws -> PhotoHeader {
        let facts = try VideoDecoder.damage { try VideoFile(path: bytes.path).facts }
        let (w, h) = facts.shownSize
        let camera = [facts.make, facts.model].compactMap { $0 }
        let name = camera.count == 2 && camera[1].lowercased().hasPrefix(camera[0].lowercased()) ? camera[1] : camera.joined(separator: " ")
        let place = facts.location.flatMap(ISO6709.init(parsing:))
        var metadata = PhotoMetadata(width: w, height: h, orientation: 1, taken: facts.creationTime.flatMap(VideoDecoder.isoDate),
                                     camera: name.isEmpty ? nil : name, caption: nil, hasGPS: place != nil, lens: nil)
        metadata.video = VideoMetadata(duration: facts.duration, codec: facts.codec,
                                       frameRate: facts.frameRate > 0 ? facts.frameRate : nil, place: place)
        return PhotoHeader(storedWidth: facts.width, storedHeight: facts.height, metadata: metadata)
    }

    /// The duration in seconds of the movie at `path` (a Live Photo's motion part), from its header alone; nil when
    /// FFmpeg cannot open it or its container gives none. Import records it with the movie's row and reads no frame.
    public static func duration(ofMovieAt path: String) -> Double? {
        guard let duration = try? VideoFile(path: path).facts.duration, duration > 0 else { return nil }
        return duration
    }

    /// Decodes the poster's candidates: damaged when FFmpeg cannot.
    public func decodeEveryPixel(_ bytes: FileBytes, failOn: FailOn) throws {
        _ = try poster(bytes, choosing: .auto, shrink: { _ in 1 })
    }

    /// The chosen frame as an upright libvips image, its time in seconds, and a note for the step's message when
    /// it is not the frame asked for (a time past the end).
    /// - Parameters:
    ///   - choosing: `auto` searches (below); a time is the frame at that time (`fixedFrame`).
    ///   - shrink: the shrink for the upright frame's shown size (`VideoFacts.shownSize`).
    private func poster(_ bytes: FileBytes, choosing: PosterTime,
                        shrink: ((width: Int, height: Int)) -> Int) throws -> (image: Image, time: Double, note: String?) {
        let video = try VideoDecoder.damage { try VideoFile(path: bytes.path, reading: .header) }
        return try VideoDecoder.poster(of: video, choosing: choosing, shrink: shrink)
    }

    /// The poster of a video opened from its header.
    private static func poster(of video: VideoFile, choosing: PosterTime,
                               shrink: ((width: Int, height: Int)) -> Int) throws -> (image: Image, time: Double, note: String?) {
        let (frame, turn, note): (VideoFrame, Int, String?) = try VideoDecoder.damage {
            try video.checkComplete()
            let duration = video.facts.duration
            let by = shrink(video.facts.shownSize)
            if let time = choosing.time(inDuration: duration) {
                let (frame, note) = try VideoDecoder.fixedFrame(video, at: time, asked: choosing, shrink: by)
                return (frame, video.facts.rotation, note)
            }
            var middle: VideoFrame?
            var keyTimes: [Double] = []
            for fraction in [0.1, 0.25, 0.5] {
                let time = duration * fraction
                // The key frame before the time, decoded alone; when an earlier candidate was that very key frame
                // (a stream with few key frames), the frame at the time itself, decoded up from it.
                var candidate = try video.keyFrame(atOrBefore: time, squarePixels: true, shrink: by)
                if let key = candidate, keyTimes.contains(key.time) {
                    candidate = try video.frame(at: time, squarePixels: true, shrink: by)
                } else if let key = candidate {
                    keyTimes.append(key.time)
                }
                guard let frame = candidate else { continue }
                if !VideoDecoder.isNearlyUniform(frame) { return (frame, video.facts.rotation, nil) }
                if fraction == 0.5 { middle = frame }
            }
            if let middle { return (middle, video.facts.rotation, nil) }
            guard let first = try video.frame(at: 0, squarePixels: true, shrink: by) else {
                throw DamagedImage("damaged video: no frame of its video stream decodes")
            }
            return (first, video.facts.rotation, nil)
        }
        var image = try Image.fromPixels(frame.bytes, width: frame.width, height: frame.height, bands: 3)
        // The display rotation, by libvips' rot: EXIF orientation 6 is 90° clockwise, 3 is 180°, 8 is 270°.
        if let orientation = [90: 6, 180: 3, 270: 8][turn] {
            image = try image.setting("orientation", to: orientation).autorotated()
        }
        return (image, frame.time, note)
    }

    /// The frame at `time` itself (a seek to the key frame before it, decoded up to it), whatever it shows: a
    /// `poster:` time is the user's choice. A time at or past the end of the stream (`100%`, `60s` in a 10 s clip)
    /// is the last key frame, and the note says so.
    private static func fixedFrame(_ video: VideoFile, at time: Double, asked: PosterTime,
                                   shrink: Int) throws -> (VideoFrame, String?) {
        if time < video.facts.duration, let frame = try video.frame(at: time, squarePixels: true, shrink: shrink) {
            return (frame, nil)
        }
        let note = "poster: \(asked) is past the end of the video (\(seconds(video.facts.duration)) s): its last key frame"
        if let last = try video.keyFrame(atOrBefore: max(time, video.facts.duration), squarePixels: true, shrink: shrink) {
            return (last, note)
        }
        guard let first = try video.frame(at: 0, squarePixels: true, shrink: shrink) else {
            throw DamagedImage("damaged video: no frame of its video stream decodes")
        }
        return (first, note)
    }

    /// Whether a frame is nearly one colour: the grey of every 8th pixel has a standard deviation under 4, or a
    /// mean under 10 (black).
    static func isNearlyUniform(_ frame: VideoFrame) -> Bool {
        var sum = 0.0, squares = 0.0, count = 0.0
        var index = 0
        let step = 8 * 3
        while index + 2 < frame.bytes.count {
            let grey = (299 * Double(frame.bytes[index]) + 587 * Double(frame.bytes[index + 1])
                        + 114 * Double(frame.bytes[index + 2])) / 1000
            sum += grey
            squares += grey * grey
            count += 1
            index += step
        }
        guard count > 0 else { return true }
        let mean = sum / count
        let deviation = (max(0, squares / count - mean * mean)).squareRoot()
        return deviation < 4 || mean < 10
    }

    /// A container's date tag as album's ISO-8601 capture time: "2023-05-01T12:34:56+0200" and
    /// "2023-05-01T10:34:56.000000Z" become "2023-05-01T12:34:56+02:00" and "2023-05-01T10:34:56+00:00"; nil when
    /// it is not such a date.
    static func isoDate(_ tag: String) -> String? {
        let pattern = #"^(\d{4}-\d\d-\d\d)[T ](\d\d:\d\d:\d\d)(\.\d+)?(Z|[+-]\d\d:?\d\d)?$"#
        guard tag.range(of: pattern, options: .regularExpression) != nil else { return nil }
        let utf8 = Array(tag.utf8)
        var text = String(decoding: utf8[0..<10], as: UTF8.self) + "T" + String(decoding: utf8[11..<19], as: UTF8.self)
        var rest = utf8[19...]
        if rest.first == UInt8(ascii: ".") { rest = rest.drop { $0 == UInt8(ascii: ".") || (48...57).contains($0) } }
        let zone = String(decoding: rest, as: UTF8.self)
        if zone == "Z" {
            text += "+00:00"
        } else if !zone.isEmpty {
            let digits = zone.filter { $0 != ":" }
            text += String(digits.prefix(3)) + ":" + String(digits.suffix(2))
        }
        return text
    }

    /// Seconds for the provenance: "2.5", "12".
    static func seconds(_ time: Double) -> String {
        let tenths = (time * 10).rounded() / 10
        return tenths == tenths.rounded() ? String(Int(tenths)) : String(tenths)
    }

    /// `body`, with FFmpeg's failures as damage: the photo is recorded damaged with FFmpeg's words, and the run goes
    /// on. A header album refuses (a frame side over 16384, a duration over 24 h) is a refusal in album's words, as
    /// an image bomb's is, not damage.
    private static func damage<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as VideoError where error.isRefusal {
            throw StageError("its header is refused: \(error.message)")
        } catch let error as VideoError {
            throw DamagedImage("damaged video: \(error.reason)")
        }
    }
}

/// A video opened from its header, handed to the deferred decode of its poster, which runs once on the worker that
/// resolves it (FFmpeg's contexts are used by one thread at a time).
private final class OpenedVideo: @unchecked Sendable {
    let file: VideoFile

    init(_ file: VideoFile) {
        self.file = file
    }
}
