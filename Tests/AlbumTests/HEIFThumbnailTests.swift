import Foundation
import XCTest

/// HEIF/AVIF thumbnails from the embedded thumbnail, end to end through the built binary: it serves when it is at
/// least the rendition's size on the side the fit needs (else the primary image), the step says so,
/// `embedded-thumbnail: ignore` re-renders exactly the HEIF photos, and orientation is libheif's (an EXIF orientation
/// that disagrees turns nothing). The files are made by libheif's own `heif-enc` (`-t`: a thumbnail item).
final class HEIFThumbnailTests: XCTestCase {
    /// A 1600×1200 HEIC of the quadrant picture (red top-left on blue), with a thumbnail of `thumbnail` pixels on its
    /// long edge when given; `orientation` writes the source JPEG's EXIF orientation, which heif-enc keeps as EXIF
    /// (no `irot`).
    @discardableResult
    private func heic(_ name: String, thumbnail: Int?, orientation: Int = 1, in folder: String) throws -> String {
        try Probe.require("heif-enc", package: "libheif-examples")
        let source = try Fixture.jpeg(at: folder + "/sources/\(name).jpg", width: 1600, height: 1200, quality: 95)
        if orientation != 1 {
            let tagged = try Tool.run(["exiftool", "-q", "-overwrite_original", "-n", "-Orientation=\(orientation)", source])
            XCTAssertEqual(tagged.status, 0, tagged.stderr)
        }
        try FileManager.default.createDirectory(atPath: folder + "/photos", withIntermediateDirectories: true)
        let path = folder + "/photos/\(name).heic"
        let made = try Tool.run(["heif-enc", "-q", "70"] + (thumbnail.map { ["-t", "\($0)"] } ?? []) + ["-o", path, source])
        XCTAssertEqual(made.status, 0, made.stderr)
        return path
    }

    @discardableResult
    private func run(_ thumbnail: String, in folder: String) throws -> (status: Int32, stdout: String, stderr: String) {
        try TestSupport.write("""
            version: 1
            catalogue: album
            stages:
              - import: {from: photos}
              - thumbnail: {\(thumbnail)}
            """, to: "job.yml", in: folder)
        return try TestSupport.album(["run", "job.yml"], in: folder)
    }

    private func step(_ name: String, in folder: String) throws -> String {
        try Probe.rows(folder + "/album", """
            SELECT status || ': ' || coalesce(error, '') FROM steps WHERE stage = 'thumbnail' AND path LIKE '%/\(name)'
            AND run = (SELECT max(id) FROM runs)
            """).first ?? "no step"
    }

    /// Red top-left on blue, as the quadrant picture is upright.
    private func assertUpright(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let means = try Fixture.quadrants(of: path).means
        XCTAssert(means[0][0] > 150 && means[0][2] < 100, "top-left red: \(means)", file: file, line: line)
        for q in 1...3 { XCTAssert(means[q][2] > 150 && means[q][0] < 100, "quadrant \(q) blue: \(means)", file: file, line: line) }
    }

    func testTheEmbeddedThumbnailServesWhenItIsLargeEnoughOnTheSideTheFitNeeds() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let with = try heic("with", thumbnail: 320, in: folder)
        let without = try heic("without", thumbnail: nil, in: folder)
        XCTAssertEqual(try run("size: 240x240", in: folder).status, 0)
        XCTAssertEqual(try step("with.heic", in: folder), "done: from the embedded thumbnail (320×240)", "cover: both sides ≥ 240")
        XCTAssertEqual(try step("without.heic", in: folder), "done:", "no thumbnail: the primary image, as before")
        for original in [with, without] {
            let thumbnail = try Probe.newestThumbnail(folder + "/album", original: original)
            XCTAssertEqual(try Probe.header(thumbnail).width, 240)
            try assertUpright(thumbnail)
        }
        // 300×300 cover needs 300 on both sides: 320×240 is too small, so the primary image; contain needs one side.
        XCTAssertEqual(try run("size: 300x300", in: folder).status, 0)
        XCTAssertEqual(try step("with.heic", in: folder), "done:")
        XCTAssertEqual(try run("size: 300x300, fit: contain", in: folder).status, 0)
        XCTAssertEqual(try step("with.heic", in: folder), "done: from the embedded thumbnail (320×240)")
    }

    /// `embedded-thumbnail:` is in the parameters of HEIF photos' renditions only.
    func testSwitchingEmbeddedThumbnailReRendersExactlyTheHEIFPhotos() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try heic("phone", thumbnail: 320, in: folder)
        try Fixture.jpeg(at: folder + "/photos/camera.jpg")
        try RawFixture.dng(at: folder + "/photos/camera.dng", preview: "480x320")
        XCTAssertEqual(try run("size: 240x240", in: folder).status, 0)
        XCTAssertEqual(try run("size: 240x240, embedded-thumbnail: ignore", in: folder).status, 0)
        XCTAssertEqual(try step("phone.heic", in: folder), "done:", "the primary image")
        // The JPEG and the DNG are up to date: a skipped step is no row, so the run's only done step is the HEIC's.
        XCTAssertEqual(try Probe.rows(folder + "/album", """
            SELECT count(*) FROM steps WHERE stage = 'thumbnail' AND status = 'done' AND run = (SELECT max(id) FROM runs)
            """), ["1"])
    }

    /// A HEIF's `irot` (added by the test's own heif_rotate.py: a quarter turn anticlockwise, on the primary image and
    /// the thumbnail) is applied by libheif to both, whatever the EXIF says (6 here, which would turn the other way):
    /// the recorded size is the turned one, and the thumbnail from either image shows the red quadrant bottom-left.
    func testTheHEIFsOwnIrotTurnsBothImagesAndTheEXIFOrientationNothing() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let plain = try heic("stored", thumbnail: 320, orientation: 6, in: folder)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Support/heif_rotate.py").path
        let turned = folder + "/photos/turned.heic"
        let made = try Tool.run(["/usr/bin/python3", script, plain, turned, "1"])
        XCTAssertEqual(made.status, 0, made.stderr)
        try FileManager.default.removeItem(atPath: plain)
        XCTAssertEqual(try run("size: 160x160, fit: contain", in: folder).status, 0)
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT width || 'x' || height || ' ' || orientation FROM photos"), ["1200x1600 1"])
        XCTAssertEqual(try step("turned.heic", in: folder), "done: from the embedded thumbnail (240×320)")
        func assertRedBottomLeft(_ label: String) throws {
            let thumbnail = try Probe.newestThumbnail(folder + "/album", original: turned)
            let header = try Probe.header(thumbnail)
            XCTAssertEqual([header.width, header.height], [120, 160], label)
            let means = try Fixture.quadrants(of: thumbnail).means
            XCTAssert(means[2][0] > 150 && means[2][2] < 100, "\(label): bottom-left red: \(means)")
            for q in [0, 1, 3] { XCTAssert(means[q][2] > 150 && means[q][0] < 100, "\(label): quadrant \(q) blue: \(means)") }
        }
        try assertRedBottomLeft("from the thumbnail item")
        XCTAssertEqual(try run("size: 160x160, fit: contain, embedded-thumbnail: ignore", in: folder).status, 0)
        XCTAssertEqual(try step("turned.heic", in: folder), "done:", "the primary image")
        try assertRedBottomLeft("from the primary image")
    }

    /// libvips 8.14's heifload drops a HEIF's EXIF orientation (libheif applies the file's own `irot`/`imir`, which
    /// are authoritative): a HEIC whose EXIF says 6 and which has no `irot` shows its pixels as stored, from the
    /// thumbnail and from the primary image alike, and is recorded with orientation 1.
    func testAnEXIFOrientationThatDisagreesWithTheHEIFTurnsNothing() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let with = try heic("exif6", thumbnail: 320, orientation: 6, in: folder)
        let without = try heic("exif6-bare", thumbnail: nil, orientation: 6, in: folder)
        XCTAssertEqual(try run("size: 160x160, fit: contain", in: folder).status, 0)
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT width || 'x' || height || ' ' || orientation FROM photos"),
                       ["1600x1200 1", "1600x1200 1"])
        XCTAssertEqual(try step("exif6.heic", in: folder), "done: from the embedded thumbnail (320×240)")
        for original in [with, without] {
            let thumbnail = try Probe.newestThumbnail(folder + "/album", original: original)
            let header = try Probe.header(thumbnail)
            XCTAssertEqual([header.width, header.height], [160, 120], original)
            try assertUpright(thumbnail)
        }
    }
}
