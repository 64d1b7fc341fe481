import Foundation

/// One photo in the catalogue: an original's identity (its SHA-256), where it is, and what album knows of it.
public struct PhotoRecord: Sendable, Equatable {
    /// A UUID, like the gallery app's `GalleryPhoto.id`: made from the bytes' hash for photos imported since schema
    /// version 6 (`id(forHash:)`), random for earlier ones.
    public var id: String
    /// SHA-256 of the original's bytes, hex.
    public var hash: String
    /// The original's absolute path (`mode: reference`), where album reads it; never written.
    public var path: String
    public var bytes: Int
    /// The original's modification time (ns since 1970) and inode when it was last hashed: the fast path skips
    /// re-hashing a file whose size, mtime and inode are unchanged.
    public var mtimeNanoseconds: Int
    public var inode: Int
    public var width: Int
    public var height: Int
    /// The format detected from the bytes: a row of the format table (jpeg, png, …, jxl, and the camera RAWs dng, cr2, …).
    public var format: String
    /// Capture time from EXIF `DateTimeOriginal` (+ `OffsetTimeOriginal`), ISO-8601; nil when the photo has none.
    public var taken: String?
    /// Import time, ISO-8601 UTC.
    public var added: String
    public var caption: String?
    /// The applied filter preset's name; "none" for the original look.
    public var filter: String
    /// The applied filter's resolved recipe as canonical JSON ("[]" for none): the photo's current look.
    public var filterRecipe: String
    /// "Make Model", when EXIF has them.
    public var camera: String?
    /// EXIF orientation, 1–8.
    public var orientation: Int
    public var hasGPS: Bool
    /// The id of the photo this one replaces: same path, different bytes.
    public var replaces: String?
    /// Where the catalogue keeps its own copy (`mode: copy`), relative to the catalogue folder.
    public var storedPath: String?
    /// Why this photo's pixels could not be decoded, as the run that met the damage said it; nil when no run has.
    /// A damaged photo is not retried until its bytes change (a new photo) or `--retry-damaged` (docs/catalogue.md).
    public var damage: String? = nil
    /// When `album prune --keep-missing` kept this photo while its original was gone (ISO-8601 UTC); nil if never.
    public var missingKept: String? = nil
    /// The lens its metadata names (EXIF `LensModel`, or libraw's reading of a camera RAW), when it names one.
    public var lens: String? = nil
    /// XMP's `xmp:Rating` (−1 rejected, 0 unrated, 1–5), a sidecar's over the embedded packet's.
    public var rating: Int? = nil
    /// XMP's `xmp:Label` ("Red", "Select"), likewise.
    public var label: String? = nil
    /// XMP's `dc:subject`, then `lr:hierarchicalSubject`'s paths ("Places|Europe|Paris"), likewise.
    public var keywords: [String] = []
    /// XMP's `dc:title`, likewise.
    public var title: String? = nil
    /// XMP's `dc:description`, likewise: the caption when the photo has none of its own, and how a later sidecar
    /// edit knows a caption it may replace (one that came from XMP) from one it must keep.
    public var xmpDescription: String? = nil
    /// The XMP sidecar read at import (`IMG_1.xmp` or `IMG_1.CR2.xmp`), absolute; nil when there was none.
    public var sidecar: String? = nil
    /// The sidecar's size, inode and modification time when it was read: a change is noticed by a stat.
    public var sidecarIdentity = SidecarIdentity()
    /// Why the sidecar or the embedded XMP could not be read, naming the file; nil when both were (or there was none).
    public var xmpProblem: String? = nil

    /// Where the movie of a Motion Photo lies in its original (a JPEG or HEIC with an MP4 appended, marked in its
    /// XMP): its first byte and its length, checked at import (docs/catalogue.md, "Motion"); nil for a still.
    public var motionOffset: Int? = nil
    public var motionLength: Int? = nil

    /// A video's facts from its header (docs/catalogue.md, "Videos"): its duration in seconds, FFmpeg's name of its
    /// codec ("h264", "hevc") and its frames per second; nil for a still, and for a video imported before schema 10.
    public var duration: Double? = nil
    public var codec: String? = nil
    public var frameRate: Double? = nil
    /// Where a video was taken, in degrees (WGS 84), from its container's ISO 6709 tag; nil when it holds none
    /// album can read, and for every still (a photo's EXIF GPS is `hasGPS` only).
    public var latitude: Double? = nil
    public var longitude: Double? = nil

    /// The file album reads the original from: its own copy when it made one, else the user's file.
    public func originalPath(in catalogueFolder: String) -> String {
        storedPath.map { catalogueFolder + "/" + $0 } ?? path
    }

    public init(id: String, hash: String, path: String, bytes: Int, mtimeNanoseconds: Int, inode: Int, width: Int,
                height: Int, format: String, taken: String? = nil, added: String, caption: String? = nil,
                filter: String, filterRecipe: String, camera: String? = nil, orientation: Int, hasGPS: Bool,
                replaces: String? = nil, storedPath: String? = nil, damage: String? = nil, missingKept: String? = nil,
                lens: String? = nil) {
        self.id = id
        self.hash = hash
        self.path = path
        self.bytes = bytes
        self.mtimeNanoseconds = mtimeNanoseconds
        self.inode = inode
        self.width = width
        self.height = height
        self.format = format
        self.taken = taken
        self.added = added
        self.caption = caption
        self.filter = filter
        self.filterRecipe = filterRecipe
        self.camera = camera
        self.orientation = orientation
        self.hasGPS = hasGPS
        self.replaces = replaces
        self.storedPath = storedPath
        self.damage = damage
        self.missingKept = missingKept
        self.lens = lens
    }
}

extension PhotoRecord {
    /// A new photo's id: the first 128 bits of its bytes' SHA-256 shaped as a UUID of version 8 (RFC 9562's custom
    /// form: the version nibble set to 8 and the variant bits to 10), so the same bytes imported by two processes, two
    /// chunks of a distributed run, are one photo with one id (docs/distributed.md). A catalogue holds one photo per
    /// set of bytes (`photos.hash` is unique), so the id is unique as the hash is.
    package static func id(forHash hash: String) -> String {
        var digits = Array(hash.lowercased().prefix(32))
        guard digits.count == 32, digits.allSatisfy(\.isHexDigit) else { return UUID().uuidString.lowercased() }
        digits[12] = "8"
        let variant = (Int(String(digits[16]), radix: 16)! & 0x3) | 0x8
        digits[16] = Character(String(variant, radix: 16))
        let text = String(digits)
        let cuts = [8, 12, 16, 20]
        var parts: [Substring] = []
        var start = text.startIndex
        for cut in cuts {
            let end = text.index(text.startIndex, offsetBy: cut)
            parts.append(text[start..<end])
            start = end
        }
        parts.append(text[start...])
        return parts.joined(separator: "-")
    }
}
