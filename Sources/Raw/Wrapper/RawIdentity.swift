import Foundation

/// What libraw's identify reads from a camera RAW's headers, before any pixel is unpacked.
public struct RawIdentity: Sendable, Equatable {
    /// The maker as libraw normalises it ("Nikon", "Sony", "Canon", "Pentax", …) and the model.
    public var make: String
    public var model: String
    /// Whether the file is a DNG (it has a `DNGVersion`).
    public var isDNG: Bool
    /// The lens as the file names it, when it does.
    public var lens: String?
    /// The capture time as libraw reads it (`other.timestamp`): the camera clock's wall time read with `mktime`, as
    /// local time; 0 when the file has none.
    public var timestamp: Int
    /// The size of the image libraw decodes, as stored (before `orientation`).
    public var width: Int
    public var height: Int
    /// The RAW's own orientation as an EXIF value, 1–8, from libraw's `flip`.
    public var orientation: Int
    /// The largest embedded preview libraw found, when there is one.
    public var preview: RawPreviewInfo?

    public init(make: String, model: String, isDNG: Bool, lens: String?, timestamp: Int, width: Int, height: Int,
                orientation: Int, preview: RawPreviewInfo?) {
        self.make = make
        self.model = model
        self.isDNG = isDNG
        self.lens = lens
        self.timestamp = timestamp
        self.width = width
        self.height = height
        self.orientation = orientation
        self.preview = preview
    }

    /// The capture time as the camera's clock read it, "2008-04-20T19:12:06"; nil when the file has none. Worked out
    /// when asked (import's header), not at every identify: a calendar is not free.
    public var taken: String? {
        guard timestamp > 0 else { return nil }
        // `timestamp` was made with `mktime`, as local time: read back the same way, it is the camera's wall time again.
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second],
                                            from: Date(timeIntervalSince1970: TimeInterval(timestamp)))
        guard let y = parts.year, let mo = parts.month, let d = parts.day, let h = parts.hour, let mi = parts.minute,
              let s = parts.second else { return nil }
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d", y, mo, d, h, mi, s)
    }

    /// libraw's `flip` (dcraw's: 0, 3 = 180°, 5 = 90° anticlockwise, 6 = 90° clockwise; bit 0 mirrors columns, bit 1
    /// rows, bit 2 transposes) as the EXIF orientation that displays the stored pixels upright. dcraw maps EXIF to
    /// flip with `"50132467"[orientation & 7]`; this is its inverse.
    public static func orientation(flip: Int) -> Int {
        [1, 2, 4, 3, 5, 8, 6, 7][flip & 7]
    }
}

/// An embedded preview's header: its stored size, read at identify without unpacking it (what it holds, a JPEG or a
/// bitmap, libraw says when it unpacks it: `RawPreview`).
public struct RawPreviewInfo: Sendable, Equatable {
    public var width: Int
    public var height: Int
    /// Its size in the file, in bytes.
    public var bytes: Int

    public init(width: Int, height: Int, bytes: Int) {
        self.width = width
        self.height = height
        self.bytes = bytes
    }
}
