import Foundation
import XCTest

/// Live Photos (issue 33, docs/catalogue.md "Live Photos"), through the built binary on files the tests make: a JPEG
/// and a MOV (an H.264 clip made by ffmpeg) with the same name in one folder are one photo whose still renders and
/// whose movie is its second original, its motion part.
final class LivePhotoTests: XCTestCase, DrivesAlbum {
    /// The movie's duration in seconds as ffprobe reads its container: the truth the motion part's `duration` is
    /// compared with.
    func probedDuration(_ path: String) throws -> Double {
        let probe = try Tool.run(["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", path])
        return try XCTUnwrap(Double(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines)), probe.stdout + probe.stderr)
    }

    /// The `duration` of a photo's one second original in `ls --json`.
    func motionDuration(_ photo: [String: Any]?) throws -> Double {
        let seconds = try XCTUnwrap(photo?["second_originals"] as? [[String: Any]])
        XCTAssertEqual(seconds.count, 1)
        return try XCTUnwrap(seconds.first?["duration"] as? Double, "\(seconds)")
    }

    /// `photos/IMG_1.JPG` + `photos/IMG_1.MOV` (a Live Photo), `photos/lone.mov` (a movie with no still) and
    /// `photos/solo.jpg` (a still with no movie), and a job that imports them (the default `include`, which names no
    /// movie), makes thumbnails and exports each photo's motion part.
    func library() throws -> String {
        let folder = try TestSupport.temporaryFolder(self)
        try Fixture.jpeg(at: "\(folder)/photos/IMG_1.JPG")
        try MotionFixture.movie(at: "\(folder)/photos/IMG_1.MOV")
        try MotionFixture.movie(at: "\(folder)/photos/lone.mov", variant: 1)
        try Fixture.jpeg(at: "\(folder)/photos/solo.jpg", variant: 1)
        try TestSupport.write("""
            version: 1
            name: live
            stages:
              - import: {from: photos}
              - thumbnail: {size: 32x32}
              - export: {from: motion, to: "out/{name}.{ext}"}
            """, to: "job.yml", in: folder)
        return folder
    }

    func testAStillAndAMOVWithTheSameNameAreOnePhotoWhoseMotionFileIsListedAndExported() throws {
        let folder = try library()
        let movie = "\(folder)/photos/IMG_1.MOV"
        let before = try ["IMG_1.JPG", "IMG_1.MOV", "lone.mov", "solo.jpg"].map { try TestSupport.hash("\(folder)/photos/\($0)") }
        let run = try album(["run", "--verbose", "job.yml"], in: folder)
        XCTAssertTrue(run.stderr.contains("import         3"), run.stderr)
        let photos = try photos(in: folder)
        XCTAssertEqual(Set(photos.keys), ["IMG_1.JPG", "solo.jpg", "lone.mov"],
                       "the Live Photo is one photo, its MOV no item of its own; a movie with no still is a video of its own")
        XCTAssertEqual(photos["lone.mov"]?["format"] as? String, "mov")
        XCTAssertEqual(seconds(photos["lone.mov"]), [], "a video alone has no motion file")
        XCTAssertEqual(photos["IMG_1.JPG"]?["format"] as? String, "jpeg", "the still renders")
        XCTAssertEqual(seconds(photos["IMG_1.JPG"]), ["IMG_1.MOV mov \(try TestSupport.hash(movie)) \(try size(movie))"],
                       "ls --json names its motion file")
        XCTAssertEqual(seconds(photos["solo.jpg"]), [])
        let duration = try probedDuration(movie)
        XCTAssertEqual(try motionDuration(photos["IMG_1.JPG"]), duration, accuracy: 0.001, "ls --json gives the motion part's duration")
        let shown = String(format: "%.1f s", duration)
        XCTAssertTrue(try album(["ls"], in: folder).stdout.contains("\(folder)/photos/IMG_1.JPG + IMG_1.MOV (\(shown))"))
        XCTAssertTrue(try album(["show", "photos/IMG_1.JPG"], in: folder).stdout.contains("second   \(movie) (mov, \(shown), "))
        XCTAssertTrue(try album(["show", "photos/IMG_1.MOV"], in: folder).stdout.contains("path     \(folder)/photos/IMG_1.JPG"),
                      "the movie's path names the photo too")

        // export from: motion copies the MOV as it is; the still with no movie is skipped with the reason.
        XCTAssertEqual(try TestSupport.hash("\(folder)/out/IMG_1.mov"), try TestSupport.hash(movie))
        let probe = try Tool.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=codec_name", "-of", "csv=p=0",
                                  "\(folder)/out/IMG_1.mov"])
        XCTAssertEqual(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "h264", probe.stderr)
        XCTAssertTrue(run.stderr.contains("export skipped: \(folder)/photos/solo.jpg: it has no motion part"), run.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: "\(folder)/out/solo.mov"))

        try album(["verify"], in: folder)
        try album(["run", "job.yml"], in: folder)
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT count(*) FROM steps WHERE run = (SELECT max(id) FROM runs)"), ["0"],
                       "unchanged: nothing read, nothing written")

        // A movie paired before schema 10 has no duration: the next run reads it from the header, the step skipped.
        _ = try Tool.sqlite(folder + "/album/catalogue.db", "UPDATE second_originals SET duration = NULL", writing: true)
        XCTAssertTrue(try album(["ls"], in: folder).stdout.contains("\(folder)/photos/IMG_1.JPG + IMG_1.MOV\n"))
        try album(["run", "job.yml"], in: folder)
        XCTAssertEqual(try motionDuration(try self.photos(in: folder)["IMG_1.JPG"]), duration, accuracy: 0.001)
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT count(*) FROM steps WHERE run = (SELECT max(id) FROM runs)"), ["0"])
        XCTAssertEqual(try ["IMG_1.JPG", "IMG_1.MOV", "lone.mov", "solo.jpg"].map { try TestSupport.hash("\(folder)/photos/\($0)") }, before,
                       "originals are never written")
    }

    func testAnEditedMovieIsANewVersionAndItsExportIsMadeAgain() throws {
        let folder = try library()
        try album(["run", "job.yml"], in: folder)
        let id = try XCTUnwrap(try photos(in: folder)["IMG_1.JPG"]?["id"] as? String)
        let movie = "\(folder)/photos/IMG_1.MOV"
        try MotionFixture.movie(at: movie, seconds: 2, variant: 3)
        XCTAssertEqual(try album(["ls", "--state", "changed", "-q"], in: folder).stdout.split(separator: "\n"), [Substring(id)])
        try album(["run", "job.yml"], in: folder)
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT stage || ' ' || status || ' ' || coalesce(error, '') FROM steps WHERE run = (SELECT max(id) FROM runs) AND stage IN ('import', 'export') ORDER BY id"),
                       ["import done its second original \(movie) changed: recorded as its new version",
                        "export done the Live Photo's movie \(movie)"])
        XCTAssertEqual(try TestSupport.hash("\(folder)/out/IMG_1.mov"), try TestSupport.hash(movie), "the new movie exported")
        XCTAssertEqual(try motionDuration(try photos(in: folder)["IMG_1.JPG"]), try probedDuration(movie), accuracy: 0.001,
                       "the new version's duration (2 s, not 1)")
        XCTAssertEqual(try photos(in: folder)["IMG_1.JPG"]?["id"] as? String, id, "the still did not change")
        try album(["verify"], in: folder)
    }

    func testVerifyPruneRelocateAndRmTreatTheMotionFile() throws {
        let folder = try library()
        try album(["run", "job.yml"], in: folder)
        // Moved with its folder: verify misses both files, relocate moves both.
        try FileManager.default.moveItem(atPath: "\(folder)/photos", toPath: "\(folder)/moved")
        try album(["verify"], in: folder, status: 1)
        let relocate = try album(["relocate", "--from", "\(folder)/photos", "--to", "\(folder)/moved"], in: folder)
        XCTAssertTrue(relocate.stdout.contains("second original: \(folder)/photos/IMG_1.MOV -> \(folder)/moved/IMG_1.MOV"), relocate.stdout)
        try album(["verify"], in: folder)

        // The movie deleted: verify says so, prune forgets it and keeps the still.
        let movie = "\(folder)/moved/IMG_1.MOV"
        try FileManager.default.removeItem(atPath: movie)
        let verify = try album(["verify", "--json"], in: folder, status: 1)
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(verify.stdout.utf8)) as? [String: Any])
        let problems = try XCTUnwrap(report["problems"] as? [[String: Any]])
        XCTAssertEqual(problems.map { $0["path"] as? String }, [movie])
        XCTAssertTrue((problems.first?["message"] as? String ?? "").hasPrefix("the second original is missing"), "\(problems)")
        let prune = try album(["prune", "--json"], in: folder)
        let pruned = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(prune.stdout.utf8)) as? [String: Any])
        XCTAssertEqual((pruned["second_originals"] as? [[String: Any]])?.map { $0["path"] as? String }, [movie])
        XCTAssertEqual(seconds(try photos(in: folder)["IMG_1.JPG"]), [])
        try album(["verify"], in: folder)

        // The movie back, paired again by the next run; rm forgets both files' rows and deletes neither; gc keeps them.
        try MotionFixture.movie(at: movie)
        try TestSupport.write("""
            version: 1
            name: live
            stages:
              - import: {from: moved}
            """, to: "job.yml", in: folder)
        try album(["run", "job.yml"], in: folder)
        let id = try XCTUnwrap(try photos(in: folder)["IMG_1.JPG"]?["id"] as? String)
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT count(*) FROM second_originals WHERE photo = '\(id)'"), ["1"])
        try album(["rm", id], in: folder)
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT count(*) FROM second_originals"), ["0"])
        try album(["gc"], in: folder)
        XCTAssertTrue(FileManager.default.fileExists(atPath: movie), "rm and gc never delete an original")
        XCTAssertTrue(FileManager.default.fileExists(atPath: "\(folder)/moved/IMG_1.JPG"))
        try album(["verify"], in: folder)
    }

    func testAMovieFFmpegCannotOpenIsPairedWithNoDuration() throws {
        let folder = try library()
        let movie = "\(folder)/photos/IMG_1.MOV"
        try Data("not a QuickTime movie".utf8).write(to: URL(fileURLWithPath: movie))
        try TestSupport.write("""
            version: 1
            name: live
            stages:
              - import: {from: photos}
            """, to: "job.yml", in: folder)
        try album(["run", "job.yml"], in: folder)
        let photo = try photos(in: folder)["IMG_1.JPG"]
        XCTAssertEqual(seconds(photo), ["IMG_1.MOV mov \(try TestSupport.hash(movie)) \(try size(movie))"], "paired by its name")
        XCTAssertTrue((photo?["second_originals"] as? [[String: Any]])?.first?["duration"] is NSNull, "\(String(describing: photo))")
        let listed = try album(["ls"], in: folder).stdout
        XCTAssertTrue(listed.contains("\(folder)/photos/IMG_1.JPG + IMG_1.MOV\n"), "no duration shown: \(listed)")
        XCTAssertTrue(try album(["show", "photos/IMG_1.JPG"], in: folder).stdout.contains("second   \(movie) (mov, \(try size(movie)) bytes, "))
    }

    func testAnExcludedMovieAMovieWithTwoStillsAndPairSeparatePairNothing() throws {
        let folder = try library()
        try Fixture.jpeg(at: "\(folder)/photos/IMG_1.heic.jpg", variant: 5)  // another name: does not count
        try Fixture.jpeg(at: "\(folder)/photos/two.jpg", variant: 6)
        try Fixture.jpeg(at: "\(folder)/photos/TWO.JPEG", variant: 7)
        try MotionFixture.movie(at: "\(folder)/photos/two.mov", variant: 2)
        try TestSupport.write("""
            version: 1
            name: live
            stages:
              - import: {from: photos, exclude: ["lone.*"]}
            """, to: "job.yml", in: folder)
        try album(["run", "job.yml"], in: folder)
        let photos = try photos(in: folder)
        XCTAssertEqual(seconds(photos["IMG_1.JPG"]).count, 1)
        XCTAssertEqual(seconds(photos["two.jpg"]), [], "two stills of one name pair with no movie")
        XCTAssertEqual(seconds(photos["TWO.JPEG"]), [])

        let separate = try library()
        try TestSupport.write("""
            version: 1
            name: live
            stages:
              - import: {from: photos, pair: separate}
            """, to: "job.yml", in: separate)
        try album(["run", "job.yml"], in: separate)
        XCTAssertEqual(seconds(try self.photos(in: separate)["IMG_1.JPG"]), [], "pair: separate pairs no Live Photo")
    }
}
