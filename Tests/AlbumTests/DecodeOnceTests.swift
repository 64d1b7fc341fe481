import Foundation
import XCTest
import System
import Vips
@testable import Media

/// One decode for several outputs (docs/scheduler.md): a photo's cover thumbnail and `max-size` export derive from
/// one decode of its original, to the pixels each gets when it is rendered alone; a single output, a full-size
/// export and an incremental run with one output out of date render alone as before. Every run goes through the
/// built binary on generated photos large enough that JPEG shrink-on-load differs between the two sizes.
final class DecodeOnceTests: XCTestCase {
    /// The photos: 3000×2000 JPEGs of gradients and grain, one turned by EXIF orientation 6, one with a Display P3 profile, one
    /// greyscale, one that the job gives the sepia look.
    private let names = ["plain", "turned", "p3", "grey", "sepia"]

    private func photos(in folder: String) throws {
        for (variant, name) in names.enumerated() {
            let (w, h) = (3000, 2000)
            let xy = try Image.coordinates(width: w, height: h)
            let red = try xy.bands(0).scaled(by: 200 / Double(w), plus: 20)
            let green = try xy.bands(1).scaled(by: 180 / Double(h), plus: 40)
            // Grain a few pixels across, as in a photo's texture, rather than independent noise per pixel.
            let blue = try Image.gaussianNoise(width: w, height: h, sigma: 200, mean: 120, seed: variant + 1).blurred(sigma: 3)
            var image = try red.joined(with: green).joined(with: blue).roundedToUChar().relabelled(as: .srgb)
            switch name {
            case "turned": image = try image.setting("orientation", to: 6)
            case "p3": image = try image.exported(toProfile: "p3")
            case "grey": image = try image.converted(to: .grey)
            default: break
            }
            let path = "\(folder)/photos/\(name).jpg"
            try FileManager.default.createDirectory(atPath: folder + "/photos", withIntermediateDirectories: true)
            try Data(try image.encoded(as: .jpeg, quality: 90, strip: false)).write(to: URL(fileURLWithPath: path))
        }
    }

    /// A job over `folder/photos`: the sepia look on one photo, then the outputs asked for.
    private func job(in folder: String, thumbnail: String? = "{size: 240x240, fit: cover}",
                     export: String? = "{from: image, to: \"out/{name}.jpg\", max-size: 1440, quality: 85}") -> String {
        var stages = ["  - import: {from: photos}",
                      "  - filter: {preset: sepia, select: {path: \"\(folder)/photos/sepia.jpg\"}}"]
        if let thumbnail { stages.append("  - thumbnail: \(thumbnail)") }
        if let export { stages.append("  - export: \(export)") }
        return "version: 1\ncatalogue: album\nstages:\n" + stages.joined(separator: "\n") + "\n"
    }

    /// Runs `job` in `folder` with one worker and returns the `run-finished` event.
    @discardableResult
    private func run(_ job: String, in folder: String, workers: Int = 1) throws -> [String: Any] {
        try TestSupport.write(job, to: "job.yml", in: folder)
        let result = try TestSupport.album(["run", "job.yml", "--workers", String(workers), "--log-format", "json"], in: folder)
        XCTAssertEqual(result.status, 0, result.stderr)
        let line = result.stdout.split(separator: "\n").last { $0.contains("\"run-finished\"") } ?? ""
        return (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
    }

    /// The run's `decodes_shared`: photos decoded once for several outputs, and the outputs derived.
    private func shared(_ event: [String: Any]) -> [Int] {
        let counts = event["decodes_shared"] as? [String: Any] ?? [:]
        return [counts["photos"] as? Int ?? -1, counts["outputs"] as? Int ?? -1]
    }

    /// The stage's step counts of the run: [done, skipped, failed].
    private func steps(_ stage: String, _ event: [String: Any]) -> [Int] {
        let counts = (event["stages"] as? [String: Any])?[stage] as? [String: Any] ?? [:]
        return ["done", "skipped", "failed"].map { counts[$0] as? Int ?? -1 }
    }

    /// The thumbnail file of each photo, by the name of its original.
    /// Each photo's thumbnail file by name: its look's (the newest: a filtered look's before is recorded first), or
    /// with `originalLook` its original look's (a filtered photo's before, and a plain photo's thumbnail).
    private func thumbnails(in folder: String, originalLook: Bool = false) throws -> [String: String] {
        let rows = try Probe.rows(folder + "/album", """
            SELECT p.path, r.path FROM renditions r JOIN photos p ON p.id = r.photo WHERE r.kind = 'thumbnail' AND \(originalLook
                ? "r.input_hash = p.hash"
                : "r.id = (SELECT max(id) FROM renditions WHERE photo = p.id AND kind = 'thumbnail')")
            """)
        var files: [String: String] = [:]
        for row in rows {
            let parts = row.components(separatedBy: "|")
            let name = ((parts[0] as NSString).lastPathComponent as NSString).deletingPathExtension
            let path = parts[1].hasPrefix("/") ? parts[1] : folder + "/album/" + parts[1]
            files[name] = path
        }
        return files
    }

    /// Compares a thumbnail derived from the shared decode with the one rendered alone: the same size, the same
    /// look (every 30×30 block's mean colour within 2 levels: colour, orientation and recipe as alone), and a
    /// measured SSIM ≥ 0.98 with a mean difference under 1.5 levels.
    ///
    /// Not issue 17's ±2 levels or SSIM ≥ 0.995: alone, a JPEG thumbnail is shrunk on load by libjpeg's DCT scaling,
    /// derived it is resized from the 1440 px image, and two resamplings of fine detail differ by more than that.
    /// libvips' own `thumbnail` differs as much from itself, shrink-on-load against a full decode (SSIM 0.98–0.99 on
    /// corpus photos: Benchmarks/INVESTIGATION.md, "One decode for several outputs").
    private func assertSameLook(_ a: String, _ b: String, _ what: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let x = try Probe.decodeJPEG(a), y = try Probe.decodeJPEG(b)
        XCTAssertEqual([x.width, x.height], [y.width, y.height], "\(what): the same size", file: file, line: line)
        guard x.rgb.count == y.rgb.count else { return }
        let comparison = PixelComparison(x.rgb, y.rgb, width: x.width, height: y.height)
        let said = "\(what): largest difference \(comparison.largest), mean \(comparison.mean), SSIM \(comparison.ssim), block means \(comparison.blockMeans)"
        XCTAssertLessThanOrEqual(comparison.blockMeans, 2, said, file: file, line: line)
        XCTAssertGreaterThanOrEqual(comparison.ssim, 0.98, said, file: file, line: line)
        XCTAssertLessThan(comparison.mean, 1.5, said, file: file, line: line)
    }

    /// A cover thumbnail and a 1440 px export made together decode each photo once, and give what two jobs each
    /// making one of them alone give: the exports byte for byte, the thumbnails the same look within the
    /// resampling's difference (`assertSameLook`). Alone, each job shares nothing.
    func testAThumbnailAndAPreviewShareOneDecodeAndGiveWhatEachGivesAlone() throws {
        let root = try TestSupport.temporaryFolder(self)
        let both = root + "/both", thumbnailAlone = root + "/thumbnail", exportAlone = root + "/export"
        for folder in [both, thumbnailAlone, exportAlone] { try photos(in: folder) }

        let together = try run(job(in: both), in: both)
        XCTAssertEqual(shared(together), [5, 10], "one decode per photo, both outputs derived from it")
        XCTAssertEqual(steps("thumbnail", together), [5, 0, 0])
        XCTAssertEqual(steps("export", together), [5, 0, 0])
        XCTAssertEqual(shared(try run(job(in: thumbnailAlone, export: nil), in: thumbnailAlone)), [0, 0])
        XCTAssertEqual(shared(try run(job(in: exportAlone, thumbnail: nil), in: exportAlone)), [0, 0])

        let made = try thumbnails(in: both), alone = try thumbnails(in: thumbnailAlone)
        XCTAssertEqual(Set(made.keys), Set(names))
        for name in names {
            try assertSameLook(made[name]!, alone[name]!, "\(name)'s thumbnail")
            let export = "\(both)/out/\(name).jpg", aloneExport = "\(exportAlone)/out/\(name).jpg"
            XCTAssertEqual(try TestSupport.hash(export), try TestSupport.hash(aloneExport),
                           "\(name)'s export is the one it gets alone: the shared image is its own pixels before the recipe")
        }
        XCTAssertEqual(try Probe.header("\(both)/out/turned.jpg").width, 960, "the turned photo is upright")
        let sepia = try Probe.decodeJPEG(made["sepia"]!).mean, plain = try Probe.decodeJPEG(made["plain"]!).mean
        XCTAssertGreaterThan(sepia[0] - sepia[2], plain[0] - plain[2] + 20, "the sepia look is on its shared thumbnail")
        // The sepia photo's before (the original look's thumbnail, for the report) comes from the shared decode too,
        // and has the original look, as the one the thumbnail-only job made beside its own sepia thumbnail.
        let before = try XCTUnwrap(try thumbnails(in: both, originalLook: true)["sepia"])
        try assertSameLook(before, try XCTUnwrap(try thumbnails(in: thumbnailAlone, originalLook: true)["sepia"]), "sepia's before")
        let beforeMean = try Probe.decodeJPEG(before).mean
        XCTAssertLessThan(beforeMean[0] - beforeMean[2], sepia[0] - sepia[2] - 20, "the before has no sepia")

        // Plan and provenance as before: nothing left to do, and a rerun skips both outputs without decoding.
        let plan = try TestSupport.album(["plan", "job.yml"], in: both)
        XCTAssertEqual(plan.status, 0, plan.stderr)
        let rerun = try run(job(in: both), in: both)
        XCTAssertEqual(shared(rerun), [0, 0])
        XCTAssertEqual(steps("thumbnail", rerun), [0, 5, 0])
        XCTAssertEqual(steps("export", rerun), [0, 5, 0])
    }

    /// An incremental run in which only the thumbnail is out of date (a new quality) renders it alone, to the bytes
    /// a thumbnail-only job gives, and does not pay for the preview's larger decode; with 2 workers the shared path
    /// gives the same files as with 1.
    func testAnIncrementalRunWithOneOutputOutOfDateRendersItAlone() throws {
        let root = try TestSupport.temporaryFolder(self)
        let folder = root + "/both", alone = root + "/alone", two = root + "/two"
        for path in [folder, alone, two] { try photos(in: path) }
        try run(job(in: folder), in: folder)
        XCTAssertEqual(shared(try run(job(in: two), in: two, workers: 2)), [5, 10])
        for name in names {
            XCTAssertEqual(try TestSupport.hash("\(two)/out/\(name).jpg"), try TestSupport.hash("\(folder)/out/\(name).jpg"))
        }

        let newQuality = "{size: 240x240, fit: cover, quality: 60}"
        let incremental = try run(job(in: folder, thumbnail: newQuality), in: folder)
        XCTAssertEqual(steps("thumbnail", incremental), [5, 0, 0])
        XCTAssertEqual(steps("export", incremental), [0, 5, 0])
        XCTAssertEqual(shared(incremental), [0, 0], "one output to render: rendered alone")
        try run(job(in: alone, thumbnail: newQuality, export: nil), in: alone)
        let made = try thumbnails(in: folder), expected = try thumbnails(in: alone)
        for name in names {
            let newest = try Probe.rows(folder + "/album", """
                SELECT r.path FROM renditions r JOIN photos p ON p.id = r.photo
                WHERE r.kind = 'thumbnail' AND p.path LIKE '%/\(name).jpg' ORDER BY r.rowid DESC LIMIT 1
                """).first ?? ""
            XCTAssertNotNil(made[name])
            let path = newest.hasPrefix("/") ? newest : folder + "/album/" + newest
            XCTAssertEqual(try TestSupport.hash(path), try TestSupport.hash(expected[name]!), "\(name): rendered alone, byte for byte")
        }
    }

    /// A full-size export (no `max-size`) and one above the cap are never shared: each output renders alone, and
    /// the files are those of the outputs alone.
    func testAFullSizeExportOrOneAboveTheCapIsNotShared() throws {
        let root = try TestSupport.temporaryFolder(self)
        let full = root + "/full", large = root + "/large", alone = root + "/alone"
        for path in [full, large, alone] { try photos(in: path) }
        XCTAssertEqual(shared(try run(job(in: full, export: "{from: image, to: \"out/{name}.jpg\"}"), in: full)), [0, 0])
        let aboveCap = "{from: image, to: \"out/{name}.jpg\", max-size: \(SharedDecode.longEdgeCap + 1)}"
        XCTAssertEqual(shared(try run(job(in: large, export: aboveCap), in: large)), [0, 0])
        try run(job(in: alone, export: nil), in: alone)
        let expected = try thumbnails(in: alone)
        for (folder, made) in [(full, try thumbnails(in: full)), (large, try thumbnails(in: large))] {
            for name in names {
                XCTAssertEqual(try TestSupport.hash(made[name]!), try TestSupport.hash(expected[name]!), "\(folder): \(name)")
            }
        }
    }

    /// A damaged original met by the shared decode is damage as before: the photo's step fails with the damage
    /// sentence, the photo is recorded damaged, and the others still share their decode.
    func testADamagedOriginalInASharedDecodeIsRecordedAsDamage() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try photos(in: folder)
        let path = folder + "/photos/plain.jpg"
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: path))
        try assertSharedDecodeRecordsDamage(of: "plain.jpg", in: folder)
    }

    /// The same for a PNG: libjpeg's own check never sees it, so the damage is libvips' failure in the shared
    /// decode, which only a decode of the original alone can tell from another error.
    func testADamagedPNGOriginalInASharedDecodeIsRecordedAsDamage() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try photos(in: folder)
        let jpeg = folder + "/photos/plain.jpg"
        let png = try Image.open(FileBytes(path: jpeg), sequential: false, failOn: .warning).encoded(as: .png, quality: 0, strip: true)
        try FileManager.default.removeItem(atPath: jpeg)
        try Data(png.prefix(png.count / 2)).write(to: URL(fileURLWithPath: folder + "/photos/plain.png"))
        try assertSharedDecodeRecordsDamage(of: "plain.png", in: folder)
    }

    private func assertSharedDecodeRecordsDamage(of name: String, in folder: String) throws {
        try TestSupport.write(job(in: folder), to: "job.yml", in: folder)
        let result = try TestSupport.album(["run", "job.yml", "--workers", "2", "--log-format", "json"], in: folder)
        XCTAssertEqual(result.status, 1, result.stderr)
        let line = result.stdout.split(separator: "\n").last { $0.contains("\"run-finished\"") } ?? ""
        let event = (try JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
        XCTAssertEqual(shared(event), [4, 8], "the four good photos share their decode")
        XCTAssertEqual(steps("thumbnail", event), [4, 0, 1])
        let damage = try Probe.rows(folder + "/album", "SELECT damage FROM photos WHERE path LIKE '%/\(name)'")
        XCTAssertEqual(damage.count, 1)
        XCTAssertTrue(damage.first?.hasPrefix("damaged image data") == true, "recorded as damage: \(damage)")
    }
}
