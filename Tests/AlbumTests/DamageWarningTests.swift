import Foundation
import XCTest
import Vips

/// A real damaged file behind each damage word album recognises (`Attribution.isDamage`), run through the built
/// binary: with the default `on-damaged: fail` each fails with a reason naming the damage, and with
/// `on-damaged: warn` each whose header can be read is accepted and rendered as far as it decodes, as
/// docs/job-files.md promises ("decode what can be decoded"). Each file's damage is confirmed first by a decoder
/// that is not album's (djpeg, or Python's zlib and CRC), so no expectation comes from the code under test.
final class DamageWarningTests: XCTestCase {
    /// A damaged file, the words album's failure must contain, and whether its damage reaches album only as a
    /// decoder warning (libvips fails nothing; album's own guard in `LookRenderer` fails the photo).
    struct Case {
        var name: String
        var bytes: [UInt8]
        var reason: String
        var guardOnly: Bool
        /// The header is intact, so `on-damaged: warn` accepts the photo.
        var headerReadable = true
    }

    /// The upright quadrant picture, 320×200, as album's fixtures write it.
    func quadrantJPEG() throws -> [UInt8] { try FormatFixture.quadrants().encoded(as: .jpeg, quality: 90, strip: true) }
    func quadrantPNG() throws -> [UInt8] { try FormatFixture.quadrants().encoded(as: .png, quality: 100, strip: true) }

    func cases() throws -> [Case] {
        let jpeg = try quadrantJPEG(), png = try quadrantPNG()
        let eoi = jpeg.count - 2
        XCTAssertEqual(Array(jpeg[eoi...]), [0xFF, 0xD9], "the JPEG ends with EOI")
        var lastStrip = jpeg
        for i in eoi - 4..<eoi { lastStrip[i] = 0x55 }           // the last four bytes of entropy data overwritten
        let middle = eoi / 2 + 300
        let inserted = Array(jpeg[..<middle]) + [0xFF, 0xD3] + Array(jpeg[middle...])  // an RST3 marker inside the scan
        let chunks = DamagedFixture.chunks(ofPNG: png)
        XCTAssertEqual(chunks.first?.0, "IHDR")
        let withText = { (chunk: (String, [UInt8])) in [chunks[0], chunk] + chunks.dropFirst() }
        let idat = chunks.filter { $0.0 == "IDAT" }.flatMap { $0.1 }
        let webp = try FormatFixture.quadrants().encoded(as: .webp, quality: 90, strip: true)
        let tiff = try FormatFixture.quadrants().encoded(as: .tiff, quality: 100, strip: true)
        return [
            Case(name: "truncated.jpg", bytes: Array(jpeg.prefix(jpeg.count / 2)), reason: "Premature end", guardOnly: false),
            Case(name: "no-eoi.jpg", bytes: Array(jpeg.prefix(eoi)), reason: "Premature end", guardOnly: false),
            Case(name: "marker.jpg", bytes: inserted, reason: "Corrupt JPEG data", guardOnly: false),
            // Damage in the last strip: libvips 8.14's jpegload fails nothing and only warns at close ("read gave
            // 1 warnings", then its error buffer: libjpeg's words). album's own libjpeg check fails the photo.
            Case(name: "last-strip.jpg", bytes: lastStrip, reason: "damaged image data: the decoder reported \"Corrupt JPEG data", guardOnly: true),
            // An ancillary chunk's bad CRC, and zTXt streams zlib rejects: libpng only warns (benign errors).
            Case(name: "text-crc.png", bytes: DamagedFixture.png(withText(("tEXt", Array("Comment\0hello".utf8))), badCRC: ["tEXt"]),
                 reason: "damaged image data: the decoder reported \"tEXt: CRC error\"", guardOnly: true),
            Case(name: "ztxt-distance.png", bytes: DamagedFixture.png(withText(DamagedFixture.zTXt(DamagedFixture.invalidDistanceZlib))),
                 reason: "damaged image data: the decoder reported \"zTXt: invalid distance too far back\"", guardOnly: true),
            Case(name: "ztxt-truncated.png", bytes: DamagedFixture.png(withText(DamagedFixture.zTXt(DamagedFixture.cutZlib))),
                 reason: "damaged image data: the decoder reported \"zTXt: truncated\"", guardOnly: true),
            // The pixels' own chunks damaged: libpng stops with an error. (libvips' reason is its own summary,
            // "libpng read error"; libpng's words reach album only as warnings of the failed rendering.)
            Case(name: "idat-crc.png", bytes: DamagedFixture.png(chunks, badCRC: ["IDAT"]), reason: "libpng read error", guardOnly: false),
            Case(name: "idat-distance.png", bytes: DamagedFixture.png([chunks[0], ("IDAT", DamagedFixture.invalidDistanceZlib), ("IEND", [])]),
                 reason: "libpng read error", guardOnly: false),
            // zlib's own words for the compressed pixels, passed on by libpng.
            Case(name: "idat-header.png", bytes: DamagedFixture.png([chunks[0], ("IDAT", [0x78, 0x00] + Array(idat.dropFirst(2))), ("IEND", [])]),
                 reason: "libpng read error; IDAT: incorrect header check", guardOnly: false),
            Case(name: "idat-truncated.png", bytes: DamagedFixture.png([chunks[0], ("IDAT", Array(idat.prefix(idat.count / 2))), ("IEND", [])]),
                 reason: "libpng read error", guardOnly: false),
            // libvips' own error says only "libpng read error"; what its reader told libpng says what is wrong.
            Case(name: "truncated.png", bytes: Array(png.prefix(png.count / 2)),
                 reason: "libpng read error; not enough data: the file ends before its image data does (truncated)", guardOnly: false),
            Case(name: "truncated.webp", bytes: Array(webp.prefix(webp.count * 2 / 3)), reason: "cannot decode its header: webp: unable to parse image",
                 guardOnly: false, headerReadable: false),
            Case(name: "truncated.tif", bytes: Array(tiff.prefix(tiff.count / 3)), reason: "cannot decode its header: no trusted libvips loader reads these bytes",
                 guardOnly: false, headerReadable: false),
        ]
    }

    /// Each file's damage as decoders other than album's see it.
    func testEachFixtureIsDamagedInTheEyesOfAnIndependentDecoder() throws {
        let folder = try TestSupport.temporaryFolder(self)
        for damaged in try cases() where damaged.name.hasSuffix(".jpg") {
            let path = try FormatFixture.write(damaged.bytes, to: damaged.name, in: folder)
            let decoded = try Independent.djpeg(path)
            XCTAssertEqual(decoded.status, 2, "\(damaged.name): djpeg decodes it with a warning: \(decoded.messages)")
            XCTAssert(decoded.messages.contains(damaged.name == "last-strip.jpg" || damaged.name == "marker.jpg" ? "Corrupt JPEG data" : "Premature end"),
                      "\(damaged.name): \(decoded.messages)")
            XCTAssertEqual([decoded.width, decoded.height], [320, 200])
            if damaged.name == "last-strip.jpg" {
                // Only the last strip is touched: everything above the last 16 rows is the picture.
                let top = decoded.quadrantMeans
                XCTAssertGreaterThan(top[0][0], 200, "the top-left is red: \(top)")
            }
        }
        // PNGs: every chunk's CRC and every zlib stream checked with Python's zlib, not libpng.
        var pngs: [String] = []
        for damaged in try cases() where damaged.name.hasSuffix(".png") {
            pngs.append(try FormatFixture.write(damaged.bytes, to: damaged.name, in: folder))
        }
        let report = try Independent.python("""
            import sys, zlib, struct
            for path in sys.argv[1:]:
                d = open(path, 'rb').read(); i = 8; found = []; idat = b''
                while i + 12 <= len(d):
                    n = struct.unpack('>I', d[i:i+4])[0]; t = d[i+4:i+8]; body = d[i+8:i+8+n]
                    if len(body) < n or i + 12 + n > len(d): found.append('cut'); break
                    if zlib.crc32(t + body) != struct.unpack('>I', d[i+8+n:i+12+n])[0]: found.append(t.decode() + ' crc')
                    if t == b'IDAT': idat += body
                    if t == b'zTXt':
                        z = zlib.decompressobj()
                        try:
                            z.decompress(body[body.index(b'\\0') + 2:])
                            if not z.eof: found.append('zTXt cut')
                        except zlib.error as e: found.append('zTXt ' + str(e))
                    i += 12 + n
                z = zlib.decompressobj()
                try:
                    z.decompress(idat)
                    if not z.eof: found.append('IDAT cut')
                except zlib.error as e: found.append('IDAT ' + str(e))
                print(path.split('/')[-1] + ': ' + ', '.join(found))
            """, pngs)
        let seen = Dictionary(uniqueKeysWithValues: report.split(separator: "\n").map { line in
            let parts = line.split(separator: ":", maxSplits: 1)
            return (String(parts[0]), String(parts.count > 1 ? parts[1] : ""))
        })
        XCTAssert(seen["text-crc.png"]?.contains("tEXt crc") == true, report)
        XCTAssert(seen["ztxt-distance.png"]?.contains("zTXt Error -3 while decompressing data: invalid distance too far back") == true, report)
        XCTAssert(seen["ztxt-truncated.png"]?.contains("zTXt cut") == true, report)
        XCTAssert(seen["idat-crc.png"]?.contains("IDAT crc") == true, report)
        XCTAssert(seen["idat-distance.png"]?.contains("IDAT Error -3 while decompressing data: invalid distance too far back") == true, report)
        XCTAssert(seen["idat-truncated.png"]?.contains("IDAT cut") == true, report)
        XCTAssert(seen["idat-header.png"]?.contains("IDAT Error -3 while decompressing data: incorrect header check") == true, report)
        XCTAssert(seen["truncated.png"]?.contains("cut") == true, report)
    }

    /// Runs a job over every damaged file and returns each photo's failed step's error, by file name.
    func run(onDamaged: String?, in folder: String) throws -> (status: Int32, failures: [String: String], done: [String: Set<String>]) {
        for damaged in try cases() { try FormatFixture.write(damaged.bytes, to: damaged.name, in: folder + "/photos") }
        try TestSupport.write("""
            version: 1
            stages:
              - import: {from: photos\(onDamaged.map { ", on-damaged: \($0)" } ?? "")}
              - thumbnail: {size: 64x64}
              - export: {from: image, to: "out/{name}-{source-ext}.jpg"}
            """, to: "job.yml", in: folder)
        // One worker: each reason is then the file's own without the attribution machinery's help.
        let result = try TestSupport.album(["run", "job.yml", "--workers", "1", "--log-format", "json"], in: folder)
        var failures: [String: String] = [:], done: [String: Set<String>] = [:]
        for line in result.stdout.split(separator: "\n") {
            let event = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            guard event["event"] as? String == "step", let path = event["path"] as? String else { continue }
            let name = (path as NSString).lastPathComponent
            if event["status"] as? String == "failed" { failures[name] = event["error"] as? String ?? "" }
            if event["status"] as? String == "done" { done[name, default: []].insert(event["stage"] as? String ?? "") }
        }
        return (result.status, failures, done)
    }

    func testWithTheDefaultEachDamagedFileFailsWithAReasonNamingTheDamage() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let (status, failures, _) = try run(onDamaged: nil, in: folder)
        XCTAssertEqual(status, 1)
        for damaged in try cases() {
            let error = failures[damaged.name]
            XCTAssert(error?.contains(damaged.reason) == true, "\(damaged.name) fails with '\(damaged.reason)': \(error ?? "no failure")")
            if damaged.guardOnly {
                XCTAssertFalse(error?.contains("libvips") ?? true, "\(damaged.name): libvips itself failed nothing, album's guard did: \(error ?? "")")
            }
            if damaged.name.hasSuffix(".jpg") {
                // A JPEG's reason is libjpeg's first warning, word for word what djpeg prints.
                let djpeg = try Independent.djpeg(try FormatFixture.write(damaged.bytes, to: damaged.name, in: folder + "/judged"))
                let words = djpeg.messages.split(separator: "\n").first.map(String.init) ?? "djpeg said nothing"
                XCTAssert(error?.contains("the decoder reported \"\(words)\"") == true, "\(damaged.name): djpeg's words, \(words): \(error ?? "")")
            }
            let stem = (damaged.name as NSString).deletingPathExtension, ext = (damaged.name as NSString).pathExtension
            XCTAssertFalse(FileManager.default.fileExists(atPath: "\(folder)/out/\(stem)-\(ext).jpg"), "\(damaged.name): no export of a damaged file")
        }
    }

    /// `on-damaged: warn`: the photo is accepted and rendered from what decodes; the undamaged part is the picture.
    func testWithWarnEachReadableDamagedFileIsAcceptedAndRenderedAsFarAsItDecodes() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let (status, failures, done) = try run(onDamaged: "warn", in: folder)
        XCTAssertEqual(status, 1, "the two files whose header cannot be read still fail")
        for damaged in try cases() {
            let stem = (damaged.name as NSString).deletingPathExtension, ext = (damaged.name as NSString).pathExtension
            guard damaged.headerReadable else {
                XCTAssert(failures[damaged.name]?.contains(damaged.reason) == true, "\(damaged.name): \(failures[damaged.name] ?? "no failure")")
                continue
            }
            XCTAssertNil(failures[damaged.name], "\(damaged.name) is accepted")
            XCTAssertEqual(done[damaged.name], ["import", "thumbnail", "export"], "\(damaged.name): every stage done")
            let decoded = try Independent.djpeg("\(folder)/out/\(stem)-\(ext).jpg")
            XCTAssertEqual(decoded.status, 0, "\(damaged.name): the export is a sound JPEG: \(decoded.messages)")
            XCTAssertEqual([decoded.width, decoded.height], [320, 200], "\(damaged.name): at full size")
            let means = decoded.quadrantMeans
            if damaged.guardOnly {
                // Damage outside the pixels, or in the last strip only: the whole picture, red on blue.
                XCTAssertGreaterThan(means[0][0], 190, "\(damaged.name): \(means)")
                for q in 1...3 where !(damaged.name == "last-strip.jpg" && q >= 2) {
                    XCTAssertGreaterThan(means[q][2], 170, "\(damaged.name): quadrant \(q) is blue: \(means)")
                }
            } else if damaged.name.hasSuffix(".jpg") {
                // The JPEG damage is past the first half of the scan: the top rows decode as they were.
                let row = (0..<40).map { x in decoded.pixels[(4 * 320 + x) * 3] }
                XCTAssert(row.allSatisfy { $0 > 190 }, "\(damaged.name): the first rows are the picture's red: \(row)")
            }
        }
    }
}
