import Foundation
import XCTest

/// Motion Photos (issue 33, docs/catalogue.md "Motion"), through the built binary on files the tests make: a JPEG
/// whose XMP marks an MP4 appended to it is one photo whose movie album records (offset and length) and exports by
/// copying its bytes (`export: {from: motion}`); the still renders as any JPEG.
final class MotionPhotoTests: XCTestCase, DrivesAlbum {
    /// A job that imports `photos` and exports each photo's movie to `out/{name}.{ext}`, with a thumbnail between.
    func writeJob(in folder: String, to: String = "out/{name}.{ext}") throws {
        try TestSupport.write("""
            version: 1
            name: motion
            stages:
              - import: {from: photos}
              - thumbnail: {size: 32x32}
              - export: {from: motion, to: "\(to)"}
            """, to: "job.yml", in: folder)
    }

    func testBothMarkersRecordTheMovieAndExportFromMotionCopiesItsBytesWhileAStillIsSkipped() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let clip = try MotionFixture.movie(at: "\(folder)/clips/clip.mp4")
        try MotionFixture.motionPhoto(at: "\(folder)/photos/MVIMG_1.jpg", movie: clip, marker: .microVideo, variant: 1)
        try MotionFixture.motionPhoto(at: "\(folder)/photos/PXL_2.MP.jpg", movie: clip, marker: .directory, variant: 2)
        try Fixture.jpeg(at: "\(folder)/photos/still.jpg", variant: 3)
        try writeJob(in: folder)
        let originals = try ["MVIMG_1.jpg", "PXL_2.MP.jpg", "still.jpg"].map { try TestSupport.hash("\(folder)/photos/\($0)") }

        let run = try album(["run", "--verbose", "job.yml"], in: folder)
        XCTAssertTrue(run.stderr.contains("export skipped: \(folder)/photos/still.jpg: it has no motion part (neither a Motion Photo nor a Live Photo): nothing to export from: motion"),
                      "a still is skipped with the reason: a job over a library of stills does not fail\n\(run.stderr)")
        let photos = try photos(in: folder)
        let length = try size(clip)
        for name in ["MVIMG_1.jpg", "PXL_2.MP.jpg"] {
            XCTAssertEqual(photos[name]?["format"] as? String, "jpeg", "the still is the photo")
            XCTAssertEqual(photos[name]?["motion_length"] as? Int, length, name)
            XCTAssertEqual(photos[name]?["motion_offset"] as? Int, try size("\(folder)/photos/\(name)") - length, name)
            XCTAssertTrue(photos[name]?["xmp_problem"] is NSNull, "\(name): \(photos[name]?["xmp_problem"] ?? "")")
            XCTAssertEqual(photos[name]?["width"] as? Int, 320, "the still's size, not the movie's")
        }
        XCTAssertTrue(photos["still.jpg"]?["motion_offset"] is NSNull)
        XCTAssertTrue(photos["still.jpg"]?["motion_length"] is NSNull)

        // The movie is the clip's bytes, exactly, and plays: ffprobe reads an H.264 stream of the clip's duration.
        for stem in ["MVIMG_1", "PXL_2.MP"] {
            let exported = "\(folder)/out/\(stem).mp4"
            XCTAssertEqual(try TestSupport.hash(exported), try TestSupport.hash(clip), "\(stem): copied, never re-encoded")
            let probe = try Tool.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=codec_name,width,height",
                                      "-of", "csv=p=0", exported])
            XCTAssertEqual(probe.status, 0, probe.stderr)
            XCTAssertEqual(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "h264,64,48")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: "\(folder)/out/still.mp4"))
        let shown = try album(["show", "photos/MVIMG_1.jpg"], in: folder)
        XCTAssertTrue(shown.stdout.contains("motion   Motion Photo: a movie of \(length) bytes at byte "), shown.stdout)

        // Run again: the exports are up to date, and nothing is written.
        try album(["run", "job.yml"], in: folder)
        let again = try Probe.rows(folder + "/album", "SELECT s.status || ' ' || coalesce(s.error, '') FROM steps s WHERE s.stage = 'export' AND s.run = (SELECT max(id) FROM runs) AND s.status = 'done'")
        XCTAssertEqual(again, [])
        try album(["verify"], in: folder)
        XCTAssertEqual(try ["MVIMG_1.jpg", "PXL_2.MP.jpg", "still.jpg"].map { try TestSupport.hash("\(folder)/photos/\($0)") }, originals,
                       "originals are never written")
    }

    func testAMarkerThatPlacesNoMovieIsAWarningAndTheStillIsImportedWithoutMotion() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let clip = try MotionFixture.movie(at: "\(folder)/clips/clip.mp4")
        // An editor kept the XMP and dropped the appended movie: the offset lands inside the JPEG, where no MP4 starts.
        try MotionFixture.motionPhoto(at: "\(folder)/photos/edited.jpg", movie: clip, marker: .microVideo, appending: false)
        try writeJob(in: folder)
        let run = try album(["run", "job.yml"], in: folder)
        let photo = try XCTUnwrap(try photos(in: folder)["edited.jpg"])
        XCTAssertTrue(photo["motion_offset"] is NSNull)
        let problem = try XCTUnwrap(photo["xmp_problem"] as? String)
        XCTAssertTrue(problem.contains("its XMP marks a Motion Photo") && problem.contains("no motion part recorded"), problem)
        XCTAssertTrue(run.stderr.contains("edited.jpg: warning: its XMP marks a Motion Photo"), run.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: "\(folder)/out/edited.mp4"))
    }

    func testExportFromMotionRefusesAFormatAndAnImageExtension() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try Fixture.jpeg(at: "\(folder)/photos/a.jpg")
        try writeJob(in: folder, to: "out/{name}.jpg")
        let run = try TestSupport.album(["run", "job.yml"], in: folder)
        XCTAssertNotEqual(run.status, 0)
        XCTAssertTrue(run.stderr.contains("export from: motion writes the movie, an MP4, but export.to ends in '.jpg'"), run.stderr)
    }
}
