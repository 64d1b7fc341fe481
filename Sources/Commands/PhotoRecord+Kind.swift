import Foundation
import Core
import Catalogue
import Media

/// A catalogue item's kind as `ls`, `show` and their `--json` print it: the kind of its format's row in the format
/// table (`ImageFormat.mediaKind`), and a video's header facts in words.
extension PhotoRecord {
    var mediaKind: MediaKind { ImageFormat.mediaKind(of: format) }

    /// The photo's JSON (`PhotoRecord.json`) with `"kind"` ("photo" or "video") after its `"format"`.
    func json(kind photo: JSONValue) -> JSONValue {
        guard case .object(var members) = photo else { return photo }
        let place = (members.firstIndex { $0.0 == "format" } ?? members.count - 1) + 1
        members.insert(("kind", .string(mediaKind.rawValue)), at: place)
        return .object(members)
    }

    /// `ls`'s kind cell: "photo", or a video's "video 2.0 s h264".
    var kindCell: String { ImageFormat.kindText(format: format, duration: duration, codec: codec) }

    /// `show`'s video line: "2.0 s, h264, 30 fps"; nil for a photo, or a video imported before these were recorded.
    var videoFacts: String? {
        guard mediaKind == .video, duration != nil || codec != nil else { return nil }
        return [duration.map { "\(ImageFormat.secondsText($0)) s" }, codec, frameRate.map { "\(PhotoRecord.rate($0)) fps" }]
            .compactMap { $0 }.joined(separator: ", ")
    }

    /// `show`'s gps line: "48.857700, 2.295000" where the row holds a place, else yes or no.
    var gpsText: String {
        if let latitude, let longitude { return String(format: "%.6f, %.6f", latitude, longitude) }
        return hasGPS ? "yes" : "no"
    }

    /// A frame rate as written: "30", "29.97".
    static func rate(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%.2f", value)
    }
}
