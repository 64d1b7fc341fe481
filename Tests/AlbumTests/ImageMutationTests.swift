import Foundation
import XCTest
import System
import Vips

/// Truncated and bit-flipped images, many of them: each ends as a photo or a failure that explains itself, and the
/// process never crashes or hangs. And a requirement that holds whatever the mutation: every JPEG mutant that djpeg
/// cannot decode, or decodes with any warning, and every PNG mutant whose pixel chunks Python's
/// zlib and CRC-32 find damaged, gets no rendition in album (album never renders damaged pixels by default).
/// `ALBUM_SOAK=1` makes a thousand mutants instead of eighty.
final class ImageMutationTests: XCTestCase {

    func testMutatedImagesNeverCrashTheRun() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let soak = ProcessInfo.processInfo.environment["ALBUM_SOAK"] == "1"
        let seeds = [
            try Data(contentsOf: URL(fileURLWithPath: Fixture.jpeg(at: "\(folder)/seed/a.jpg", width: 320, height: 200, orientation: 6, taken: "2008:04:20 19:12:06"))),
            Data(try Image.fromPixels(Fixture.quadrantPixels(width: 120, height: 90), width: 120, height: 90, bands: 3).encoded(as: .png, quality: 100, strip: true)),
            Data(try Image.fromPixels(Fixture.quadrantPixels(width: 120, height: 90), width: 120, height: 90, bands: 3).encoded(as: .webp, quality: 80, strip: true)),
        ]
        try FileManager.default.createDirectory(atPath: folder + "/photos", withIntermediateDirectories: true)
        var random = SplitMix64(state: 0x5EED_2008)
        let count = soak ? 1000 : 80
        for i in 0..<count {
            var bytes = [UInt8](seeds[i % seeds.count])
            switch random.below(3) {
            case 0:                                                                    // truncated anywhere
                bytes = Array(bytes.prefix(random.below(bytes.count)))
            case 1: for _ in 0...random.below(20) { bytes[random.below(bytes.count)] ^= UInt8(1 << random.below(8)) }  // bit flips
            default:                                                                   // a run of bytes overwritten
                let start = random.below(bytes.count), length = min(1 + random.below(64), bytes.count - start)
                for j in start..<start + length { bytes[j] = UInt8(random.below(256)) }
            }
            let ext = ["jpg", "png", "webp"][i % seeds.count]
            try Data(bytes).write(to: URL(fileURLWithPath: "\(folder)/photos/m\(i).\(ext)"))
        }
        // The independent verdicts: which mutants are damaged in the eyes of djpeg and of Python's zlib.
        var damaged: [String: String] = [:]
        for i in stride(from: 0, to: count, by: seeds.count) {
            let decoded = try Independent.djpeg("\(folder)/photos/m\(i).jpg")
            // Every warning counts, those about the bytes after the last pixels too (stray bytes before EOI, a
            // missing EOI), which libvips' loader never reads: album's own libjpeg check does (issue 29).
            if decoded.status != 0 { damaged["m\(i).jpg"] = "djpeg: " + decoded.messages.trimmingCharacters(in: .whitespacesAndNewlines) }
        }
        let pngs = stride(from: 1, to: count, by: seeds.count).map { "\(folder)/photos/m\($0).png" }
        let verdicts = try Independent.python(Self.pngChecker, pngs)
        for line in verdicts.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
            if parts.count == 2 { damaged[parts[0]] = "python: " + parts[1] }
        }
        XCTAssertGreaterThan(damaged.count, count / 4, "a good share of the mutants is damaged pixel data: \(damaged.count) of \(count)")
        try TestSupport.write("""
            version: 1
            stages:
              - import: {from: photos}
              - filter: {preset: sepia, keep: full-size}
              - thumbnail: {size: 64x64}
              - export: {from: image, to: "out/{name}.jpg", max-size: 100}
            """, to: "job.yml", in: folder)
        let result = try TestSupport.album(["run", "job.yml", "--workers", "2", "--log-format", "json"], in: folder)
        XCTAssert([0, 1].contains(result.status), "the run ends normally: status \(result.status)\n\(result.stderr.suffix(2000))")
        let events = try result.stdout.split(separator: "\n").map {
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        XCTAssertEqual(events.last?["event"] as? String, "run-finished")
        let steps = events.filter { $0["event"] as? String == "step" }
        XCTAssertEqual(steps.filter { $0["stage"] as? String == "import" }.count, count, "every mutant was looked at")
        for failed in steps where failed["status"] as? String == "failed" {
            let error = failed["error"] as? String ?? ""
            XCTAssertFalse(error.isEmpty, "a failure explains itself: \(failed)")
            XCTAssertFalse(error.contains("\n"), "on one line: \(error)")
        }
        // No mutant an independent decoder finds damaged gets a rendition: it fails (or, byte for byte the same as
        // an earlier mutant, is skipped as that one's duplicate, which failed).
        let rendered = Set(steps.filter { $0["status"] as? String == "done" && ["filter", "thumbnail", "export"].contains($0["stage"] as? String ?? "") }
            .compactMap { ($0["path"] as? String).map { ($0 as NSString).lastPathComponent } })
        for (name, why) in damaged.sorted(by: { $0.key < $1.key }) {
            XCTAssertFalse(rendered.contains(name), "\(name) is damaged (\(why)) but album rendered it")
        }
        // A mutant that got through every stage has a readable export.
        for export in steps where export["stage"] as? String == "export" && export["status"] as? String == "done" {
            let name = ((export["path"] as! String) as NSString).lastPathComponent
            let stem = (name as NSString).deletingPathExtension
            XCTAssertNoThrow(try Image.open(FileBytes(path: "\(folder)/out/\(stem).jpg"), sequential: false, failOn: .error).pixels())
        }
    }

    /// Prints "name reason" for each PNG whose pixel data is damaged: before the IDAT zlib stream has given every
    /// row IHDR promises, a chunk cut short or with a bad CRC-32, the stream failing, or the file ending. Nothing
    /// after that point is judged (the rest of that chunk, its CRC, IEND): a decoder has every row by then and
    /// libpng, through libvips, does not read on.
    static let pngChecker = """
        import sys, zlib, struct
        for path in sys.argv[1:]:
            d = open(path, 'rb').read(); name = path.split('/')[-1]; i = 8; z = zlib.decompressobj(); why = None
            got = 0; need = None
            if d[:8] != b'\\x89PNG\\r\\n\\x1a\\n': why = 'signature'
            while why is None and (need is None or got < need):
                if i + 8 > len(d): why = 'file ends before the last row'; break
                n = struct.unpack('>I', d[i:i+4])[0]; t = d[i+4:i+8]; body = d[i+8:i+8+n]
                if t == b'IHDR' and len(body) == 13:
                    w, h, depth, colour = struct.unpack('>IIBB', body[:10])
                    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}.get(colour, 1)
                    need = h * (1 + (w * channels * depth + 7) // 8)
                if t == b'IDAT':
                    try: got += len(z.decompress(body))
                    except zlib.error as e: why = str(e); break
                    if need is not None and got >= need: break
                if i + 12 + n > len(d): why = 'chunk cut short'; break
                if zlib.crc32(t + body) != struct.unpack('>I', d[i+8+n:i+12+n])[0]: why = 'CRC error in ' + repr(t); break
                if t == b'IEND': why = 'IEND before the last row'; break
                i += 12 + n
            if why: print(name, why)
        """
}
