import Foundation
import XCTest

/// JPEGs that libjpeg itself calls corrupt are damaged photos, whatever libvips' loader makes of them (issue 29).
///
/// 40 photo-like JPEGs (gradients, noise, shapes, some progressive), each damaged one of four ways: 64 bytes flipped
/// in the scan, a run of the scan zeroed, the tail zeroed (no end-of-image marker), a few bytes changed at random.
/// djpeg, libjpeg-turbo's own tool, is the judge: the files it reports as corrupt are kept, the rest are sound to it.
/// Through the built binary at 2 workers, once on its own and once beside a CPU hog: no kept file gets a thumbnail,
/// an export or state `ok`, and each one's reason quotes djpeg's words; every file djpeg decodes cleanly is done.
final class CorruptJPEGTests: XCTestCase {
    /// A damaged file and what djpeg says of it (nil: it decodes cleanly).
    struct Judged {
        var name: String
        var djpeg: String?
    }

    /// Writes the 40 damaged photos into `folder`/photos and has djpeg judge each.
    func makeDamagedPhotos(in folder: String) throws -> [Judged] {
        let photos = folder + "/photos"
        try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
        _ = try Independent.python("""
            import io, random, sys
            from PIL import Image, ImageDraw, ImageFilter
            folder = sys.argv[1]
            random.seed(29)
            def photo(i):
                w, h = random.choice([(480, 360), (360, 480), (512, 384)])
                noise = Image.effect_noise((w, h), 24 + i).convert('L')
                red = Image.linear_gradient('L').rotate(i * 37).resize((w, h))
                green = Image.radial_gradient('L').resize((w, h))
                im = Image.merge('RGB', (red, green, Image.blend(noise, red, 0.5)))
                draw = ImageDraw.Draw(im)
                for _ in range(40):
                    x, y = random.randrange(w), random.randrange(h)
                    box = [x, y, x + random.randrange(4, 90), y + random.randrange(4, 90)]
                    colour = tuple(random.randrange(256) for _ in range(3))
                    (draw.ellipse if random.random() < 0.5 else draw.rectangle)(box, fill=colour)
                for _ in range(30):
                    draw.line([random.randrange(w), random.randrange(h), random.randrange(w), random.randrange(h)],
                              fill=tuple(random.randrange(256) for _ in range(3)), width=random.randrange(1, 4))
                return im.filter(ImageFilter.SMOOTH)
            kinds = ['flipped', 'zeroed-run', 'zeroed-tail', 'random-bytes']
            for i in range(40):
                out = io.BytesIO()
                photo(i).save(out, 'JPEG', quality=random.choice([75, 85, 92]), progressive=(i % 5 == 4))
                b = bytearray(out.getvalue())
                sos = b.index(b'\\xff\\xda')
                scan = sos + 2 + (b[sos + 2] << 8 | b[sos + 3])
                n = len(b)
                kind = kinds[i % 4]
                if kind == 'flipped':
                    start = random.randrange(scan, n - 70)
                    for k in range(start, start + 64): b[k] ^= 0xFF
                elif kind == 'zeroed-run':
                    start = random.randrange(scan, n - 300)
                    for k in range(start, min(n - 2, start + random.randrange(16, 400))): b[k] = 0
                elif kind == 'zeroed-tail':
                    length = random.randrange(2, 600)
                    if i == 2: length = 2                   # the end-of-image marker alone
                    for k in range(n - length, n): b[k] = 0
                else:
                    for _ in range(random.randrange(1, 12)):
                        b[random.randrange(scan, n - 2)] = random.randrange(256)
                open('%s/%02d-%s.jpg' % (folder, i, kind), 'wb').write(b)
            """, [photos])
        return try FileManager.default.contentsOfDirectory(atPath: photos).sorted().map { name in
            let decoded = try Independent.djpeg("\(photos)/\(name)")
            let words = decoded.messages.split(separator: "\n").first.map(String.init)
            return Judged(name: name, djpeg: decoded.status == 0 ? nil : words ?? "exit \(decoded.status)")
        }
    }

    /// One run of a thumbnail-and-export job over the photos at 2 workers, checked against djpeg's verdicts.
    func checkRun(of judged: [Judged], photos: String, in folder: String, label: String) throws {
        try TestSupport.write("""
            version: 1
            stages:
              - import: {from: "\(photos)"}
              - thumbnail: {size: 96x96}
              - export: {from: image, to: "out/{name}.jpg"}
            """, to: "job.yml", in: folder)
        let result = try TestSupport.album(["run", "job.yml", "--workers", "2", "--log-format", "json"], in: folder)
        XCTAssertEqual(result.status, 1, "\(label): damaged photos fail the run: \(result.stderr)")
        var failures: [String: String] = [:]
        for line in result.stdout.split(separator: "\n") {
            let event = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            guard event["event"] as? String == "step", event["status"] as? String == "failed",
                  let path = event["path"] as? String else { continue }
            failures[(path as NSString).lastPathComponent] = event["error"] as? String ?? ""
        }
        let list = try TestSupport.album(["ls", "--catalogue", "album", "--json"], in: folder)
        let rows = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
        let states = Dictionary(uniqueKeysWithValues: rows.map {
            (((($0["path"] as? String) ?? "") as NSString).lastPathComponent, ($0["state"] as? String ?? "", $0["damage"] as? String))
        })
        let thumbnails = ((try? FileManager.default.subpathsOfDirectory(atPath: folder + "/album/thumbnails")) ?? [])
            .filter { $0.hasSuffix(".jpg") }.count
        let sound = judged.filter { $0.djpeg == nil }
        XCTAssertEqual(thumbnails, sound.count, "\(label): a thumbnail for each file djpeg decodes cleanly, and no other")
        for photo in judged {
            let exported = FileManager.default.fileExists(atPath: "\(folder)/out/\(photo.name)")
            let (state, damage) = states[photo.name] ?? ("not imported", nil)
            guard let words = photo.djpeg else {
                XCTAssertTrue(exported, "\(label): \(photo.name) is sound to djpeg and exported: \(failures[photo.name] ?? "")")
                XCTAssertEqual(state, "ok", "\(label): \(photo.name)")
                continue
            }
            XCTAssertFalse(exported, "\(label): \(photo.name) (djpeg: \(words)) is not exported")
            XCTAssertEqual(state, "damaged", "\(label): \(photo.name) (djpeg: \(words))")
            let quoted = "the decoder reported \"\(words)\""
            XCTAssert(failures[photo.name]?.contains(quoted) == true,
                      "\(label): \(photo.name) fails in djpeg's words, \(quoted): \(failures[photo.name] ?? "no failure")")
            XCTAssert(damage?.contains(quoted) == true, "\(label): \(photo.name)'s recorded damage: \(damage ?? "none")")
        }
    }

    func testJPEGsThatLibjpegCallsCorruptAreDamagedAtTwoWorkersEvenUnderLoad() throws {
        try Probe.require("djpeg", package: "libjpeg-turbo-progs")
        let folder = try TestSupport.temporaryFolder(self)
        let judged = try makeDamagedPhotos(in: folder)
        let corrupt = judged.filter { $0.djpeg != nil }
        XCTAssertEqual(judged.count, 40)
        XCTAssertGreaterThanOrEqual(corrupt.count, 15, "djpeg calls at least 15 of the 40 corrupt: \(judged)")
        print("corrupt JPEGs: djpeg calls \(corrupt.count) of \(judged.count) corrupt")
        for kind in ["flipped", "zeroed-run", "zeroed-tail", "random-bytes"] {
            XCTAssert(corrupt.contains { $0.name.contains(kind) }, "every kind of damage is among the kept: \(kind)")
        }
        // The two cases of issue 29 that libvips' loader passed: what only the end of the scan reveals, and a file
        // whose end-of-image marker is zeroed, every pixel intact.
        XCTAssert(corrupt.contains { $0.djpeg!.contains("extraneous bytes before marker 0xd9") },
                  "damage that only the end of the scan reveals is among them: \(corrupt.map(\.djpeg))")
        XCTAssertEqual(judged.first { $0.name == "02-zeroed-tail.jpg" }?.djpeg, "Premature end of JPEG file")

        try checkRun(of: judged, photos: folder + "/photos", in: folder + "/quiet", label: "alone")
        let hog = try CPUHog(processes: 2)
        defer { hog.stop() }
        try checkRun(of: judged, photos: folder + "/photos", in: folder + "/loaded", label: "beside a CPU hog")
    }
}
