import XCTest
import Vips

/// The thumbnail options of docs/job-files.md and `--memory-budget`, end to end through the built `album`, read
/// back with Python's header parsing and djpeg's decoding (`Probe`). Sizes and colours are worked out by hand.
final class ThumbnailOptionTests: XCTestCase {
    /// Runs a job that imports `photos/` and makes thumbnails with `options`; returns the photo's newest thumbnail.
    func thumbnail(_ options: String, of photo: String, in folder: String) throws -> String {
        try TestSupport.write("""
            version: 1
            catalogue: album
            stages:
              - import: {from: photos}
              - thumbnail: {\(options)}
            """, to: "job.yml", in: folder)
        let result = try TestSupport.album(["run", "job.yml"], in: folder)
        XCTAssertEqual(result.status, 0, result.stderr)
        return try Probe.newestThumbnail(folder + "/album", original: photo)
    }

    /// A 320×200 picture, blue (20, 20, 200) with a red (220, 20, 20) stripe in its left tenth (x < 32).
    func stripe(in folder: String) throws -> String {
        var pixels: [UInt8] = []
        for _ in 0..<200 { for x in 0..<320 { pixels += x < 32 ? [220, 20, 20] : [20, 20, 200] } }
        let bytes = try Image.fromPixels(pixels, width: 320, height: 200, bands: 3).encoded(as: .jpeg, quality: 95, strip: true)
        return try FormatFixture.write(bytes, to: "photos/stripe.jpg", in: folder)
    }

    func testFitFillStretchesToTheBoxAndKeepsAllOfThePicture() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let photo = try stripe(in: folder)
        let path = try thumbnail("size: 100x100, fit: fill", of: photo, in: folder)
        let header = try Probe.header(path)
        XCTAssertEqual([header.width, header.height], [100, 100], "stretched, not fitted inside (100×63) nor cropped")
        let pixels = try Probe.decodeJPEG(path)
        // The stripe is squeezed to x < 10 and nothing is cropped: red at the left edge, blue from x 14 on.
        XCTAssertGreaterThan(pixels.mean(columns: 0..<6, rows: 0..<100)[0], 170, "the stripe is kept")
        XCTAssertGreaterThan(pixels.mean(columns: 14..<100, rows: 0..<100)[2], 170, "blue beside it")

        // cover, for contrast: 256×160 cropped to its middle 100 columns drops the stripe (x < 26) altogether.
        let cover = try Probe.decodeJPEG(try thumbnail("size: 100x100, fit: cover", of: photo, in: folder))
        XCTAssertLessThan(cover.mean(columns: 0..<6, rows: 0..<100)[0], 60, "cover crops the stripe away")
    }

    /// A 600×200 picture: flat grey (128) in its left two thirds, a saturated red and green 8-pixel checkerboard
    /// in its right third (x ≥ 400), the only detail in it.
    func detailOnTheRight(in folder: String) throws -> String {
        var pixels: [UInt8] = []
        for y in 0..<200 {
            for x in 0..<600 {
                if x < 400 { pixels += [128, 128, 128] } else { pixels += (x / 8 + y / 8) % 2 == 0 ? [230, 20, 20] : [20, 200, 20] }
            }
        }
        let bytes = try Image.fromPixels(pixels, width: 600, height: 200, bands: 3).encoded(as: .jpeg, quality: 95, strip: true)
        return try FormatFixture.write(bytes, to: "photos/detail.jpg", in: folder)
    }

    /// `crop` chooses which 200×200 of the 600×200 picture a 200×200 cover keeps (no scaling): centre keeps
    /// x 200..<400, all grey; attention (edges, saturation) and entropy (busiest region) keep the checkerboard.
    func testCropAttentionAndEntropyKeepTheDetailWhereCentreKeepsTheMiddle() throws {
        for (crop, detailed) in [("centre", false), ("attention", true), ("entropy", true)] {
            let folder = try TestSupport.temporaryFolder(self)
            let photo = try detailOnTheRight(in: folder)
            let path = try thumbnail("size: 200x200, fit: cover, crop: \(crop), quality: 90", of: photo, in: folder)
            let pixels = try Probe.decodeJPEG(path)
            XCTAssertEqual([pixels.width, pixels.height], [200, 200], crop)
            let deviation = pixels.lumaDeviation()
            if detailed {
                XCTAssertGreaterThan(deviation, 18, "\(crop) keeps the checkerboard: luma 82.8 and 125.7 half each, σ 21.4")
                XCTAssertGreaterThan(pixels.meanChroma, 100, "\(crop): saturated squares")
            } else {
                XCTAssertLessThan(deviation, 3, "centre keeps the flat grey middle")
            }
        }
    }

    /// Each output format's magic bytes and header size, read by hand: 320×200 inside 160×160 is 160×100.
    func testPNGWebPAndAVIFThumbnailsAreThoseFormats() throws {
        for format in ["png", "webp", "avif"] {
            let folder = try TestSupport.temporaryFolder(self)
            let photo = try Fixture.jpeg(at: "\(folder)/photos/a.jpg")
            let path = try thumbnail("size: 160x160, fit: contain, format: \(format)", of: photo, in: folder)
            XCTAssert(path.hasSuffix("." + format), path)
            if format == "avif" {
                // ISO BMFF: a box size, then "ftyp" and the major brand "avif".
                let head = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)).prefix(12))
                XCTAssertEqual(String(decoding: head[4..<12], as: UTF8.self), "ftypavif", "AVIF's ftyp box")
            } else {
                let header = try Probe.header(path)
                XCTAssertEqual(header.format, format)
                XCTAssertEqual([header.width, header.height], [160, 100], format)
            }
        }
    }

    // MARK: - --memory-budget

    func testAMemoryBudgetBelowOneMegapixelIsRejected() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try Fixture.jpeg(at: "\(folder)/photos/a.jpg")
        _ = try thumbnail("size: 64x64", of: "\(folder)/photos/a.jpg", in: folder)  // writes job.yml
        for value in ["0", "0.5"] {
            let result = try TestSupport.album(["run", "job.yml", "--memory-budget", value], in: folder)
            XCTAssertEqual(result.status, 2, "a usage error: \(result.stderr)")
            XCTAssert(result.stderr.contains("--memory-budget") && result.stderr.contains(value), result.stderr)
        }
    }

    /// The budget in force is printed under an address-space limit with --verbose: the asked-for value.
    func testTheMemoryBudgetAskedForIsTheOneUsed() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let photo = try Fixture.jpeg(at: "\(folder)/photos/a.jpg")
        _ = try thumbnail("size: 64x64", of: photo, in: folder)
        // 16 GiB of address space: enough for any plan, so the budget is not lowered, only reported.
        let limited = try Tool.run(["sh", "-c", "ulimit -v 16777216 && cd \"$0\" && exec \"$1\" run job.yml --force --verbose --memory-budget 7",
                                    folder, TestSupport.albumBinary])
        XCTAssertEqual(limited.status, 0, limited.stderr)
        XCTAssert(limited.stderr.contains("a memory budget of 7 MP (of 7)"), limited.stderr)
    }

    /// A photo larger than the budget still runs, alone: eight progressive 1200×1000 JPEGs (each reserving its
    /// 4:2:0 coefficient buffer, 3.6 MB: 1.2 MP of the budget's 3-byte pixels) on two workers under a 1 MP budget
    /// all get their thumbnail.
    func testPhotosLargerThanTheBudgetStillAllComplete() throws {
        let folder = try TestSupport.temporaryFolder(self)
        for i in 0..<8 {
            var pixels = Fixture.quadrantPixels(width: 1200, height: 1000)
            pixels[0] = UInt8(i * 20)  // one pixel apart, so that no two are duplicates
            let image = try Image.fromPixels(pixels, width: 1200, height: 1000, bands: 3)
            let bytes = try image.encoded(suffix: ".jpg[Q=80,interlace,strip]")
            try FormatFixture.write(bytes, to: "photos/p\(i).jpg", in: folder)
        }
        _ = try thumbnail("size: 64x64", of: "\(folder)/photos/p0.jpg", in: folder)  // the job file
        try FileManager.default.removeItem(atPath: folder + "/album")
        let result = try TestSupport.album(["run", "job.yml", "--workers", "2", "--memory-budget", "1"], in: folder)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT status, count(*) FROM steps WHERE stage = 'thumbnail' GROUP BY status"), ["done|8"])
    }
}
