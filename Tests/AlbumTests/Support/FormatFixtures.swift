import Foundation
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
            ("truncated.jpg", Array(jpeg.prefix(jpeg.count / 2)), "the decoder reported \"Premature end of JPEG file\""),
            ("stub.gif", Array("GIF89a".utf8), "cannot decode its header:"),
            ("document.jpg", Array("%PDF-1.4\n".utf8), "unsupported format: a PDF document"),
            ("notes.png", Array("shopping list\n".utf8), "not an image: it looks like text"),
            ("movie.heic", [0, 0, 0, 0x18] + Array("ftyp3gp4".utf8) + [UInt8](repeating: 0, count: 16), "unsupported format: an ISO media file of brand '3gp4'"),
        ]
        var reasons: [String: String] = [:]
        for (name, bytes, reason) in cases {
            try write(bytes, to: name, in: folder)
            reasons[name] = reason
        }
        return reasons
    }
}

/// Decoders and checkers that are not album's: djpeg (libjpeg-turbo-progs) and Debian's Python with Pillow
/// (python3-pil), so a test's expected values and its reading of album's output do not go through the code under test.
enum Independent {
    /// Debian's Python, which has Pillow (python3-pil); not a `python3` found first on PATH.
    static let python = "/usr/bin/python3"

    /// An image decoded by djpeg to PPM: its size and RGB pixels, and what djpeg said on stderr.
    struct Decoded {
        var width: Int
        var height: Int
        var pixels: [UInt8]
        var status: Int32
        var messages: String

        /// The mean colour of each quadrant (TL, TR, BL, BR), a margin around the centre lines left out.
        var quadrantMeans: [[Double]] {
            var sums = [[Double]](repeating: [0, 0, 0], count: 4), counts = [Double](repeating: 0, count: 4)
            for y in 0..<height {
                for x in 0..<width where abs(x - width / 2) >= 4 && abs(y - height / 2) >= 4 {
                    let q = (y < height / 2 ? 0 : 2) + (x < width / 2 ? 0 : 1)
                    for c in 0..<3 { sums[q][c] += Double(pixels[(y * width + x) * 3 + c]) }
                    counts[q] += 1
                }
            }
            return (0..<4).map { q in sums[q].map { $0 / max(counts[q], 1) } }
        }
    }

    /// Runs djpeg on a JPEG file: exit status 0 (clean), 2 (decoded with warnings) or 1 (failed), and the PPM.
    static func djpeg(_ path: String) throws -> Decoded {
        let out = path + ".djpeg.ppm"
        defer { try? FileManager.default.removeItem(atPath: out) }
        let result = try Tool.run(["djpeg", "-pnm", "-outfile", out, path])
        guard result.status != 1, let data = FileManager.default.contents(atPath: out) else {
            return Decoded(width: 0, height: 0, pixels: [], status: result.status, messages: result.stderr)
        }
        // "P6\n<w> <h>\n255\n" then the pixels (djpeg writes greyscale as P5: these tests decode colour JPEGs).
        let bytes = [UInt8](data)
        var fields: [String] = [], index = 0
        while fields.count < 4 {
            while bytes[index] == 0x20 || bytes[index] == 0x0A { index += 1 }
            var field = ""
            while bytes[index] != 0x20 && bytes[index] != 0x0A { field.append(Character(UnicodeScalar(bytes[index]))); index += 1 }
            fields.append(field)
        }
        index += 1
        precondition(fields[0] == "P6", "djpeg wrote \(fields[0]), not a colour PPM")
        return Decoded(width: Int(fields[1])!, height: Int(fields[2])!, pixels: Array(bytes[index...]), status: result.status,
                       messages: result.stderr)
    }

    /// Runs a Python script with Debian's Python (Pillow available), the arguments after it; its stdout.
    static func python(_ script: String, _ arguments: [String] = []) throws -> String {
        let result = try Tool.run([python, "-c", script] + arguments)
        precondition(result.status == 0, "python failed: \(result.stderr)")
        return result.stdout
    }
}

/// Damaged files built byte by byte, each with the damage a decoder reports in its own words.
enum DamagedFixture {
    /// A PNG of `chunks` (type, data), with every CRC right except those of the types in `badCRC`.
    static func png(_ chunks: [(String, [UInt8])], badCRC: Set<String> = []) -> [UInt8] {
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        for (type, data) in chunks {
            let typeBytes = Array(type.utf8)
            out += bigEndian(UInt32(data.count)) + typeBytes + data
            out += bigEndian(crc32(typeBytes + data) ^ (badCRC.contains(type) ? 1 : 0))
        }
        return out
    }

    /// The chunks of a PNG file (type, data), CRCs dropped.
    static func chunks(ofPNG bytes: [UInt8]) -> [(String, [UInt8])] {
        var chunks: [(String, [UInt8])] = [], i = 8
        while i + 12 <= bytes.count {
            let length = Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            chunks.append((String(decoding: bytes[i + 4..<i + 8], as: UTF8.self), Array(bytes[i + 8..<i + 8 + length])))
            i += 12 + length
        }
        return chunks
    }

    /// A zlib stream whose one deflate block (fixed Huffman codes, RFC 1951 3.2.6) is the literal "a" and then a
    /// copy of 3 bytes from 8193 bytes back, before the start of the output: zlib's "invalid distance too far back".
    static let invalidDistanceZlib: [UInt8] = {
        var bits: [UInt8] = []
        func value(_ v: Int, _ n: Int) { for i in 0..<n { bits.append(UInt8((v >> i) & 1)) } }          // LSB first
        func code(_ c: Int, _ n: Int) { for i in (0..<n).reversed() { bits.append(UInt8((c >> i) & 1)) } }  // MSB first
        value(1, 1); value(1, 2)          // BFINAL, BTYPE = 01 (fixed codes)
        code(0x30 + 0x61, 8)              // literal 'a' (0x30 + value for 0–143)
        code(1, 7)                        // length code 257: 3 bytes
        code(13, 5); value(0, 6)          // distance code 13: 8193 + 6 extra bits
        code(0, 7)                        // end of block (256)
        var bytes: [UInt8] = [0x78, 0x01]
        for start in stride(from: 0, to: bits.count, by: 8) {
            bytes.append(bits[start..<min(start + 8, bits.count)].enumerated().reduce(0) { $0 | $1.element << $1.offset })
        }
        return bytes + [0, 0, 0, 0]
    }()

    /// A zlib stream cut short: the start of a real one (a stored block's header promising more than follows).
    static let cutZlib: [UInt8] = [0x78, 0x01, 0x01, 0x00, 0x01, 0xFF, 0xFE] + Array("only part".utf8)

    /// A `zTXt` chunk (PNG 11.3.4.4): keyword, NUL, compression method 0, the compressed text.
    static func zTXt(_ compressed: [UInt8]) -> (String, [UInt8]) { ("zTXt", Array("Comment".utf8) + [0, 0] + compressed) }

    static func bigEndian(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }

    /// CRC-32 as PNG and zlib define it (ISO 3309, polynomial 0xEDB88320).
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
