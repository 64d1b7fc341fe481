import Foundation
import XCTest

/// Camera RAWs end to end through the built binary, on real libraw, libvips and SQLite: every RAW gets a thumbnail,
/// its date, camera and lens; the embedded preview serves when it is large enough, turned by the RAW's own
/// orientation, else libraw decodes; `raw: preview | decode` re-renders exactly the RAW photos; a RAW libraw cannot
/// decode is a damaged photo in libraw's words and the run goes on.
final class RawPhotoTests: XCTestCase {
    /// Runs a job over `folder/photos` with these thumbnail options.
    @discardableResult
    private func run(_ thumbnail: String, in folder: String, extra: String = "") throws -> (status: Int32, stdout: String, stderr: String) {
        try TestSupport.write("""
            version: 1
            catalogue: album
            stages:
              - import: {from: photos}
              - thumbnail: {\(thumbnail)}
            \(extra)
            """, to: "job.yml", in: folder)
        return try TestSupport.album(["run", "job.yml"], in: folder)
    }

    /// The newest run's step of `stage` for the file named `name`: "status: message".
    private func step(_ name: String, _ stage: String = "thumbnail", in folder: String) throws -> String {
        try Probe.rows(folder + "/album", """
            SELECT status || ': ' || coalesce(error, '') FROM steps WHERE stage = '\(stage)' AND path LIKE '%/\(name)'
            AND run = (SELECT max(id) FROM runs)
            """).first ?? "no step"
    }

    /// The colour names of a picture's quadrants (TL, TR, BL, BR): the DNGs show red, green, blue, white as stored.
    private func colours(_ path: String) throws -> [String] {
        try Fixture.quadrants(of: path).means.map { m in
            let (r, g, b) = (m[0], m[1], m[2])
            if r > 150, g > 150, b > 150 { return "white" }
            if r > g + 60, r > b + 60 { return "red" }
            if g > r + 60, g > b + 60 { return "green" }
            if b > r + 60, b > g + 60 { return "blue" }
            return "grey \(Int(r)),\(Int(g)),\(Int(b))"
        }
    }

    func testEveryRawGetsAThumbnailItsDateCameraAndLensFromThePreviewOrLibraw() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let withPreview = try RawFixture.dng(at: folder + "/photos/preview.dng", preview: "480x320")
        let bare = try RawFixture.dng(at: folder + "/photos/bare.dng", ["--taken", "2021:02:03 04:05:06", "--lens", "XF35mmF2 R WR"])
        let result = try run("size: 120x120", in: folder)
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertEqual(try Probe.rows(folder + "/album", """
            SELECT substr(path, 11) || ' ' || format || ' ' || width || 'x' || height || ' ' || taken || ' ' || camera || ' / ' || lens
            FROM photos ORDER BY path
            """), ["bare.dng dng 640x480 2021-02-03T04:05:06 Canon EOS 6D / XF35mmF2 R WR",
                   "preview.dng dng 640x480 2024-05-06T07:08:09 Canon EOS 6D / EF24-105mm f/4L IS USM"])
        // Provenance: the step says which image the thumbnail came from.
        XCTAssertEqual(try step("preview.dng", in: folder), "done: from the embedded preview (480×320)")
        XCTAssertEqual(try step("bare.dng", in: folder), "done: decoded by libraw 0.20.2 at half size")
        // The step records the parameters the RAW's thumbnail was made with, `raw:` among them.
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT params FROM steps WHERE stage = 'thumbnail' AND path LIKE '%/bare.dng'"),
                       [#"{"size":"120x120","fit":"cover","crop":"centre","format":"jpeg","quality":70,"raw":"preview"}"#])
        for original in [withPreview, bare] {
            let thumbnail = try Probe.newestThumbnail(folder + "/album", original: original)
            XCTAssertEqual(try Probe.header(thumbnail).width, 120)
            XCTAssertEqual(try colours(thumbnail), ["red", "green", "blue", "white"], "\(original): the picture, never black")
        }
        // ls --json and show carry the lens.
        let listed = try TestSupport.album(["ls", "--json", "--catalogue", "album"], in: folder)
        XCTAssert(listed.stdout.contains(#""lens": "EF24-105mm f/4L IS USM""#), listed.stdout)
        let shown = try TestSupport.album(["show", withPreview, "--catalogue", "album"], in: folder)
        XCTAssert(shown.stdout.contains("EF24-105mm f/4L IS USM"), shown.stdout + shown.stderr)
    }

    /// A preview smaller than the rendition is not used: libraw decodes, at full size when half would be too small.
    func testAPreviewSmallerThanTheRenditionGivesWayToLibraw() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try RawFixture.dng(at: folder + "/photos/small-preview.dng", preview: "160x107")
        let result = try run("size: 300x300", in: folder)
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertEqual(try step("small-preview.dng", in: folder), "done: decoded by libraw 0.20.2")
    }

    /// The RAW's own orientation (libraw's flip, from the DNG's Orientation 6) turns the preview, not the preview's
    /// EXIF (3 here); libraw's decode is turned by it too, so both give the same upright picture.
    func testTheRawsOwnOrientationTurnsThePreviewNotThePreviewsEXIF() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let previewed = try RawFixture.dng(at: folder + "/photos/turned.dng", preview: "480x360",
                                           ["--orientation", "6", "--preview-orientation", "3"])
        let decoded = try RawFixture.dng(at: folder + "/photos/turned-bare.dng", ["--orientation", "6"])
        let result = try run("size: 120x120, fit: contain", in: folder)
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT width || 'x' || height || ' ' || orientation FROM photos"),
                       ["480x640 6", "480x640 6"], "upright size and the RAW's orientation")
        XCTAssertEqual(try step("turned.dng", in: folder), "done: from the embedded preview (360×480)")
        for original in [previewed, decoded] {
            let thumbnail = try Probe.newestThumbnail(folder + "/album", original: original)
            let header = try Probe.header(thumbnail)
            XCTAssertEqual([header.width, header.height], [90, 120], original)
            XCTAssertEqual(try colours(thumbnail), ["blue", "red", "white", "green"], "\(original): turned 90° clockwise")
        }
    }

    /// `raw:` is in the parameters of RAW photos' renditions only: switching it re-renders the DNG and nothing else,
    /// and switching back finds the first thumbnail up to date.
    func testSwitchingRawReRendersExactlyTheRawPhotos() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try RawFixture.dng(at: folder + "/photos/camera.dng", preview: "480x320")
        try Fixture.jpeg(at: folder + "/photos/phone.jpg")
        XCTAssertEqual(try run("size: 120x120", in: folder).status, 0)
        XCTAssertEqual(try rendered(in: folder), ["camera.dng", "phone.jpg"])
        let decode = try run("size: 120x120, raw: decode", in: folder)
        XCTAssertEqual(decode.status, 0, decode.stdout + decode.stderr)
        XCTAssertEqual(try rendered(in: folder), ["camera.dng"], "the JPEG is up to date (a skipped step is no row)")
        XCTAssertEqual(try step("camera.dng", in: folder), "done: decoded by libraw 0.20.2 at half size")
        XCTAssertEqual(try run("size: 120x120, raw: preview", in: folder).status, 0)
        XCTAssertEqual(try rendered(in: folder), [], "back to the first parameters: both up to date")
        // Prune keeps what the current run applies (the RAW's own parameters among them).
        let pruned = try TestSupport.album(["prune", "--catalogue", "album"], in: folder)
        XCTAssertEqual(pruned.status, 0, pruned.stdout + pruned.stderr)
        XCTAssertEqual(try run("size: 120x120", in: folder).status, 0)
        XCTAssertEqual(try rendered(in: folder), [], "prune kept the RAW's current thumbnail")
    }

    /// The files whose thumbnails the newest run rendered (its done thumbnail steps).
    private func rendered(in folder: String) throws -> [String] {
        try Probe.rows(folder + "/album", """
            SELECT replace(path, rtrim(path, replace(path, '/', '')), '') FROM steps WHERE stage = 'thumbnail' AND status = 'done'
            AND run = (SELECT max(id) FROM runs) ORDER BY path
            """)
    }

    /// A truncated DNG (its sensor data cut, no preview) imports from its header alone, and its thumbnail fails as a
    /// damaged photo in libraw's words, naming the file; a RAW libraw cannot open at all fails its import with
    /// libraw's words. The other photos go on.
    func testADamagedRawIsADamagedPhotoInLibrawsWordsAndTheRunGoesOn() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let truncated = try RawFixture.dng(at: folder + "/photos/truncated.dng", ["--truncate", "300000"])
        try FormatFixture.write(Array("FUJIFILMCCD-RAW 0201FF383501".utf8) + [UInt8](repeating: 7, count: 4000),
                                to: "photos/unreadable.raf", in: folder)
        let good = try Fixture.jpeg(at: folder + "/photos/good.jpg")
        let result = try run("size: 120x120", in: folder)
        XCTAssertEqual(result.status, 1, "failed photos: \(result.stdout)\(result.stderr)")
        XCTAssertEqual(try step("truncated.dng", "import", in: folder), "done:", "the header is libraw's identify: no pixel decoded")
        let damaged = try step("truncated.dng", in: folder)
        XCTAssertEqual(damaged, "failed: damaged RAW data: libraw 0.20.2 cannot unpack it: Input/output error, and it has no embedded preview")
        XCTAssert(result.stderr.contains("\(truncated): damaged RAW data: libraw 0.20.2 cannot unpack it"), result.stderr)
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT damage IS NOT NULL FROM photos WHERE path LIKE '%truncated.dng'"), ["1"])
        XCTAssertEqual(try step("unreadable.raf", "import", in: folder),
                       "failed: cannot decode its header: damaged RAW data: libraw 0.20.2 cannot open it: Unsupported file format or not RAW file")
        XCTAssertEqual(try step("good.jpg", in: folder), "done:")
        XCTAssertNoThrow(try Probe.newestThumbnail(folder + "/album", original: good))
    }
}
