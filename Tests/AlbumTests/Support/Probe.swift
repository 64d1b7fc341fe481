import Foundation
import XCTest

/// Reads album's output files without album, libvips or the SQLite wrapper: headers parsed by hand in Python, JPEG
/// pixels decoded by libjpeg-turbo's `djpeg`, catalogue rows read by the `sqlite3` shell. Every expected value of the
/// behaviour tests comes through here or is written out by hand.
enum Probe {
    /// Fails the test, with what to do, when a tool `make test` installs is missing. Tests never skip.
    static func require(_ tool: String, package: String) throws {
        let found = try Tool.run(["sh", "-c", "command -v \(tool)"])
        if found.status != 0 {
            XCTFail("\(tool) is missing: run `make test`, which installs \(package)")
            throw CocoaError(.executableNotLoadable)
        }
    }

    /// The format named by a file's magic bytes (`jpeg`, `png`, `webp`, or `unknown`) and the pixel size in its
    /// header: JPEG's SOF marker, PNG's IHDR, WebP's VP8/VP8L/VP8X chunk, each parsed by hand.
    static func header(_ path: String) throws -> (format: String, width: Int, height: Int) {
        try require("python3", package: "python3")
        let script = #"""
        import struct, sys
        d = open(sys.argv[1], 'rb').read()
        if d[:3] == b'\xff\xd8\xff':
            i = 2
            while i + 4 <= len(d):
                m = d[i + 1]
                if d[i] != 0xFF: break
                if m == 0xFF: i += 1; continue
                if m in (0x01, 0xD8) or 0xD0 <= m <= 0xD7: i += 2; continue
                length = struct.unpack('>H', d[i + 2:i + 4])[0]
                if m in (0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF):
                    h, w = struct.unpack('>HH', d[i + 5:i + 9]); print('jpeg', w, h); sys.exit(0)
                i += 2 + length
            print('jpeg-without-sof 0 0')
        elif d[:8] == b'\x89PNG\r\n\x1a\n' and d[12:16] == b'IHDR':
            w, h = struct.unpack('>II', d[16:24]); print('png', w, h)
        elif d[:4] == b'RIFF' and d[8:12] == b'WEBP':
            chunk = d[12:16]
            if chunk == b'VP8 ' and d[23:26] == b'\x9d\x01\x2a':
                w, h = struct.unpack('<HH', d[26:30]); print('webp', w & 0x3FFF, h & 0x3FFF)
            elif chunk == b'VP8L' and d[20] == 0x2F:
                b = int.from_bytes(d[21:25], 'little'); print('webp', (b & 0x3FFF) + 1, ((b >> 14) & 0x3FFF) + 1)
            elif chunk == b'VP8X':
                print('webp', int.from_bytes(d[24:27], 'little') + 1, int.from_bytes(d[27:30], 'little') + 1)
            else: print('webp-unknown-chunk 0 0')
        else: print('unknown 0 0')
        """#
        let result = try Tool.run(["python3", "-c", script, path])
        let parts = result.stdout.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        guard result.status == 0, parts.count == 3, let width = Int(parts[1]), let height = Int(parts[2]) else {
            XCTFail("cannot read the header of \(path): \(result.stdout)\(result.stderr)")
            throw CocoaError(.fileReadCorruptFile)
        }
        return (parts[0], width, height)
    }

    /// The 64 values of a JPEG's first quantisation table (DQT), in the file's (zig-zag) order.
    static func firstQuantisationTable(_ path: String) throws -> [Int] {
        try require("python3", package: "python3")
        let script = #"""
        import struct, sys
        d = open(sys.argv[1], 'rb').read()
        i = 2
        while i + 4 <= len(d):
            m = d[i + 1]; length = struct.unpack('>H', d[i + 2:i + 4])[0]
            if m == 0xDB:
                precision = d[i + 4] >> 4
                size = 2 if precision else 1
                print(' '.join(str(int.from_bytes(d[i + 5 + k * size:i + 5 + (k + 1) * size], 'big')) for k in range(64)))
                sys.exit(0)
            i += 2 + length
        sys.exit('no DQT')
        """#
        let result = try Tool.run(["python3", "-c", script, path])
        let values = result.stdout.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        guard result.status == 0, values.count == 64 else {
            XCTFail("no quantisation table in \(path): \(result.stderr)")
            throw CocoaError(.fileReadCorruptFile)
        }
        return values
    }

    /// The luminance table libjpeg writes for `quality`: ITU T.81 Annex K.1 scaled by IJG's `jpeg_quality_scaling`
    /// (5000/q below 50, else 200 − 2q, in percent), clamped to 1–255. Order does not matter to the callers.
    static func ijgLuminanceTable(quality: Int) -> [Int] {
        let annexK = [16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56,
                      14, 17, 22, 29, 51, 87, 80, 62, 18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92,
                      49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99]
        let scale = quality < 50 ? 5000 / quality : 200 - 2 * quality
        return annexK.map { min(255, max(1, ($0 * scale + 50) / 100)) }
    }

    /// A JPEG decoded by `djpeg` into 8-bit RGB.
    struct Pixels {
        var width: Int, height: Int
        var rgb: [UInt8]

        /// The mean of each channel over the whole image.
        var mean: [Double] {
            var sums = [0.0, 0.0, 0.0]
            for i in stride(from: 0, to: rgb.count, by: 3) { for c in 0..<3 { sums[c] += Double(rgb[i + c]) } }
            return sums.map { $0 / Double(max(width * height, 1)) }
        }

        /// The mean of max(R, G, B) − min(R, G, B): 0 for grey, large for saturated colour.
        var meanChroma: Double {
            var sum = 0.0
            for i in stride(from: 0, to: rgb.count, by: 3) {
                let p = rgb[i..<i + 3]
                sum += Double(p.max()! - p.min()!)
            }
            return sum / Double(max(width * height, 1))
        }

        /// The standard deviation of the luma (0.299 R + 0.587 G + 0.114 B) over `columns` (all when nil).
        func lumaDeviation(columns: Range<Int>? = nil) -> Double {
            let range = columns ?? 0..<width
            var values: [Double] = []
            for y in 0..<height {
                for x in range {
                    let i = (y * width + x) * 3
                    values.append(0.299 * Double(rgb[i]) + 0.587 * Double(rgb[i + 1]) + 0.114 * Double(rgb[i + 2]))
                }
            }
            let mean = values.reduce(0, +) / Double(max(values.count, 1))
            return (values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(max(values.count, 1))).squareRoot()
        }

        /// The mean of each channel over the pixels in `columns` × `rows`.
        func mean(columns: Range<Int>, rows: Range<Int>) -> [Double] {
            var sums = [0.0, 0.0, 0.0]
            for y in rows { for x in columns { for c in 0..<3 { sums[c] += Double(rgb[(y * width + x) * 3 + c]) } } }
            return sums.map { $0 / Double(columns.count * rows.count) }
        }

        /// The pixel at (x, y).
        func at(_ x: Int, _ y: Int) -> [Int] { (0..<3).map { Int(rgb[(y * width + x) * 3 + $0]) } }
    }

    /// Decodes a JPEG with libjpeg-turbo's `djpeg` (its own decoder, not libvips) and parses the binary PPM.
    static func decodeJPEG(_ path: String) throws -> Pixels {
        try require("djpeg", package: "libjpeg-turbo-progs")
        let ppm = path + ".probe.ppm"
        defer { try? FileManager.default.removeItem(atPath: ppm) }
        let result = try Tool.run(["djpeg", "-pnm", "-outfile", ppm, path])
        guard result.status == 0 else {
            XCTFail("djpeg cannot decode \(path): \(result.stderr)")
            throw CocoaError(.fileReadCorruptFile)
        }
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: ppm)))
        // P6 header: "P6", width, height, maxval, separated by whitespace, then one whitespace byte and the pixels.
        var fields: [String] = [], index = 0, current = ""
        while fields.count < 4, index < bytes.count {
            let byte = bytes[index]
            index += 1
            if [0x20, 0x0A, 0x0D, 0x09].contains(byte) {
                if !current.isEmpty { fields.append(current); current = "" }
            } else {
                current.append(Character(UnicodeScalar(byte)))
            }
        }
        guard fields.count == 4, fields[0] == "P6", let width = Int(fields[1]), let height = Int(fields[2]),
              bytes.count - index == width * height * 3 else {
            XCTFail("djpeg wrote no 8-bit RGB PPM for \(path) (a greyscale JPEG gives P5): \(fields)")
            throw CocoaError(.fileReadCorruptFile)
        }
        return Pixels(width: width, height: height, rgb: Array(bytes[index...]))
    }

    /// The `sqlite3` shell's rows for `sql` on the catalogue in `catalogueFolder`, one string per row.
    static func rows(_ catalogueFolder: String, _ sql: String) throws -> [String] {
        try require("sqlite3", package: "sqlite3")
        let text = try Tool.sqlite(catalogueFolder + "/catalogue.db", sql)
        return text.isEmpty ? [] : text.components(separatedBy: "\n")
    }

    /// How the catalogue stores an original's absolute `path` (docs/catalogue.md, "Tables"): `../…` when it lies
    /// under the catalogue folder's parent, else as it is. Worked out here by hand, not by album's `CataloguePaths`.
    static func stored(_ path: String, in catalogueFolder: String) -> String {
        let parent = (catalogueFolder as NSString).deletingLastPathComponent
        return path.hasPrefix(parent + "/") ? "../" + path.dropFirst(parent.count + 1) : path
    }

    /// The newest thumbnail file recorded for the photo imported from `original`, as an absolute path.
    static func newestThumbnail(_ catalogueFolder: String, original: String) throws -> String {
        let rows = try rows(catalogueFolder, """
            SELECT r.path FROM renditions r JOIN photos p ON p.id = r.photo
            WHERE r.kind = 'thumbnail' AND p.path IN ('\(original)', '\(stored(original, in: catalogueFolder))') ORDER BY r.id DESC LIMIT 1
            """)
        guard let path = rows.first else {
            XCTFail("no thumbnail recorded for \(original)")
            throw CocoaError(.fileNoSuchFile)
        }
        return path.hasPrefix("/") ? path : catalogueFolder + "/" + path
    }
}
