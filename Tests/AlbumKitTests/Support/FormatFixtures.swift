import Foundation
@testable import AlbumKit
import Vips

/// Real-world file formats, generated with libvips: every one a photo album meets (ICC-tagged, CMYK, alpha,
/// 16-bit, palette, grey, AVIF, HEIC, animated GIF, TIFF, WebP) and a few damaged ones.
enum FormatFixture {
    /// The quadrant picture (red top-left on blue) as an sRGB image, optionally under an EXIF orientation.
    static func quadrants(width: Int = 320, height: Int = 200, orientation: Int = 1) throws -> Image {
        let upright = Fixture.quadrantPixels(width: width, height: height)
        let (pixels, sw, sh) = Fixture.stored(upright, width: width, height: height, orientation: orientation)
        let image = try Image.fromPixels(pixels, width: sw, height: sh, bands: 3)
        return orientation == 1 ? image : try image.setting("orientation", to: orientation)
    }

    /// A flat colour, `bands` 3 (sRGB) or 4 (the last value is alpha).
    static func flat(_ colour: [UInt8], width: Int = 64, height: Int = 48) throws -> Image {
        try Image.fromPixels((0..<width * height).flatMap { _ in colour }, width: width, height: height, bands: colour.count)
    }

    /// The quadrant picture with alpha: opaque in the left half, fully transparent in the right half.
    static func quadrantsWithAlpha(width: Int = 320, height: Int = 200) throws -> Image {
        let rgb = Fixture.quadrantPixels(width: width, height: height)
        var rgba: [UInt8] = []
        rgba.reserveCapacity(width * height * 4)
        for i in 0..<width * height {
            rgba += rgb[i * 3..<i * 3 + 3]
            rgba.append(i % width < width / 2 ? 255 : 0)
        }
        return try Image.fromPixels(rgba, width: width, height: height, bands: 4)
    }

    /// An animated GIF: the quadrant picture first, then two frames with red at the bottom-right instead.
    static func animatedGIF(width: Int = 160, height: Int = 100) throws -> [UInt8] {
        let first = Fixture.quadrantPixels(width: width, height: height)
        let turned = Fixture.stored(first, width: width, height: height, orientation: 3).0  // red at bottom-right
        let frames = try Image.fromPixels(first + turned + turned, width: width, height: height * 3, bands: 3)
        return try frames.setting("page-height", to: height).encoded(suffix: ".gif")
    }

    /// Writes `bytes` to `folder/name` and returns the path.
    @discardableResult
    static func write(_ bytes: [UInt8], to name: String, in folder: String) throws -> String {
        let path = folder + "/" + name
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Every format, named by what it is; each upright shows the quadrant picture (grey ones in grey).
    /// - Returns: file names written into `folder`.
    @discardableResult
    static func writeAll(in folder: String) throws -> [String: String] {
        let q = try quadrants()
        var files: [String: String] = [:]
        func add(_ name: String, _ bytes: [UInt8]) throws { files[name] = try write(bytes, to: name, in: folder) }
        try add("orientation-6.jpg", try quadrants(orientation: 6).encoded(as: .jpeg, quality: 90, strip: false))
        try add("p3.jpg", try q.exported(toProfile: "p3").encoded(as: .jpeg, quality: 95, strip: false))
        try add("cmyk.jpg", try q.exported(toProfile: "cmyk").encoded(suffix: ".jpg[Q=95]"))
        try add("cmyk-no-profile.jpg", try q.exported(toProfile: "cmyk").removingFields { $0 == "icc-profile-data" }.encoded(suffix: ".jpg[Q=95]"))
        try add("cmyk.tif", try q.exported(toProfile: "cmyk").encoded(suffix: ".tif"))
        try add("alpha.png", try quadrantsWithAlpha().encoded(as: .png, quality: 100, strip: false))
        try add("16-bit.png", try q.converted(to: .rgb16).encoded(suffix: ".png"))
        try add("palette.png", try q.encoded(suffix: ".png[palette]"))
        try add("grey.jpg", try q.converted(to: .grey).encoded(as: .jpeg, quality: 90, strip: false))
        try add("grey-16-bit.png", try q.converted(to: .grey16).encoded(suffix: ".png"))
        try add("photo.avif", try q.encoded(as: .avif, quality: 80, strip: false))
        try add("photo.heic", try q.encoded(suffix: ".heic[compression=hevc,Q=80]"))
        try add("animated.gif", try animatedGIF())
        try add("orientation-8.tif", try quadrants(orientation: 8).encoded(as: .tiff, quality: 100, strip: false))
        try add("orientation-3.webp", try quadrants(orientation: 3).encoded(as: .webp, quality: 90, strip: false))
        try add("café ☕ (1).png", try q.encoded(as: .png, quality: 100, strip: false))
        return files
    }

    /// Damaged and non-image files, each with the start of the reason album must give.
    @discardableResult
    static func writeBroken(in folder: String) throws -> [String: String] {
        let q = try quadrants()
        let tiff = try q.encoded(as: .tiff, quality: 100, strip: false)
        let heic = try q.encoded(suffix: ".heic[compression=hevc]")
        let jpeg = try q.encoded(as: .jpeg, quality: 90, strip: false)
        let cases: [(String, [UInt8], String)] = [
            ("truncated.tif", Array(tiff.prefix(tiff.count / 3)), "cannot decode its header: no trusted libvips loader reads these bytes"),
            ("truncated.heic", Array(heic.prefix(heic.count / 2)), "cannot decode its header:"),
            ("truncated.jpg", Array(jpeg.prefix(jpeg.count / 2)), "VipsJpeg: Premature end of"),
            ("stub.gif", Array("GIF89a".utf8), "cannot decode its header:"),
            ("document.jpg", Array("%PDF-1.4\n".utf8), "unsupported format: a PDF document"),
            ("notes.png", Array("shopping list\n".utf8), "not an image: it looks like text"),
            ("movie.heic", [0, 0, 0, 0x18] + Array("ftypmp42".utf8) + [UInt8](repeating: 0, count: 16), "unsupported format: an ISO media file of brand 'mp42'"),
        ]
        var reasons: [String: String] = [:]
        for (name, bytes, reason) in cases {
            try write(bytes, to: name, in: folder)
            reasons[name] = reason
        }
        return reasons
    }
}
