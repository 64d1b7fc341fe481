import Foundation
import XCTest
@testable import Media
import Catalogue

/// A video's facts and kind end to end through the built binary, on clips the `ffmpeg` command makes here: the
/// catalogue's `duration`, `codec`, `frame_rate`, `latitude` and `longitude` (schema 10) for an H.264 MP4 and a HEVC
/// MOV with a QuickTime location; `ls --kind`, `select: {kind: …}` and their errors; `export: {from: original}`
/// copying a video and a JPEG byte for byte, and refusing an original whose bytes changed.
final class VideoFactsTests: XCTestCase, DrivesAlbum {
    /// Makes a clip with the `ffmpeg` command (fixtures only: album never runs it).
    private func ffmpeg(_ arguments: [String]) throws {
        try Probe.require("ffmpeg", package: "ffmpeg")
        let result = try Tool.run(["ffmpeg", "-nostdin", "-v", "error", "-y"] + arguments)
        XCTAssertEqual(result.status, 0, "ffmpeg \(arguments): \(result.stderr)")
    }

    /// A 320×240 test pattern, 10 frames a second, for `seconds`, YUV 4:2:0.
    private func pattern(_ seconds: Int) -> [String] {
        ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=10", "-t", String(seconds), "-pix_fmt", "yuv420p"]
    }

    private let hevc = ["-c:v", "libx265", "-x265-params", "log-level=error", "-tag:v", "hvc1"]

    /// An H.264 MP4 of 2 s with a plain `location` tag, a HEVC MOV of 3 s with Apple's ISO 6709 key, a MOV whose
    /// location is not ISO 6709 (a longitude of two digits), and a JPEG.
    private func library(in folder: String) throws {
        let photos = folder + "/photos"
        try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
        try ffmpeg(pattern(2) + ["-c:v", "libx264", "-metadata", "location=-33.8568+151.2153/", photos + "/h264.mp4"])
        try ffmpeg(pattern(3) + hevc + ["-metadata", "com.apple.quicktime.location.ISO6709=+48.8577+002.2950+035.000/",
                                        "-movflags", "use_metadata_tags", photos + "/hevc.mov"])
        try ffmpeg(pattern(1) + ["-c:v", "libx264", "-metadata", "location=+48.8577+2.2950/", photos + "/badplace.mov"])
        try Fixture.jpeg(at: photos + "/still.jpg")
    }

    private func job(_ stages: String, select: String? = nil, named name: String = "job.yml", in folder: String) throws {
        try TestSupport.write("version: 1\ncatalogue: album\n" + (select.map { "select: \($0)\n" } ?? "") + "stages:\n" + stages,
                              to: name, in: folder)
    }

    func testAVideosDurationCodecFrameRateAndPlaceAreColumnsAndLsShowAndJSONNameItsKind() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try library(in: folder)
        try job("  - import: {from: photos}\n", in: folder)
        try album(["run", "job.yml"], in: folder)
        XCTAssertEqual(try Probe.rows(folder + "/album", """
            SELECT substr(path, instr(path, 'photos/') + 7) || ' ' || iif(duration IS NULL, '-', printf('%.1f', duration)) || ' '
            || coalesce(codec, '-') || ' ' || iif(frame_rate IS NULL, '-', printf('%.2f', frame_rate)) || ' '
            || iif(latitude IS NULL, '-', printf('%.4f', latitude)) || ' '
            || iif(longitude IS NULL, '-', printf('%.4f', longitude)) || ' ' || has_gps
            FROM photos ORDER BY path
            """), ["badplace.mov 1.0 h264 10.00 - - 0",
                   "h264.mp4 2.0 h264 10.00 -33.8568 151.2153 1",
                   "hevc.mov 3.0 hevc 10.00 48.8577 2.2950 1",
                   "still.jpg - - - - - 0"])

        let photos = try photos(in: folder)
        XCTAssertEqual(photos["hevc.mov"]?["kind"] as? String, "video")
        XCTAssertEqual(photos["hevc.mov"]?["codec"] as? String, "hevc")
        XCTAssertEqual(try XCTUnwrap(photos["hevc.mov"]?["duration"] as? Double), 3.0, accuracy: 0.05)
        XCTAssertEqual(try XCTUnwrap(photos["hevc.mov"]?["frame_rate"] as? Double), 10.0, accuracy: 0.001)
        XCTAssertEqual(try XCTUnwrap(photos["hevc.mov"]?["latitude"] as? Double), 48.8577, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(photos["hevc.mov"]?["longitude"] as? Double), 2.295, accuracy: 1e-9)
        XCTAssertEqual(photos["still.jpg"]?["kind"] as? String, "photo")
        XCTAssertTrue(photos["still.jpg"]?["duration"] is NSNull, "a still has no duration")
        XCTAssertTrue(photos["badplace.mov"]?["latitude"] is NSNull, "a location that is not ISO 6709 is absent, never guessed")

        let table = try album(["ls"], in: folder).stdout
        let hevcLine = try XCTUnwrap(table.split(separator: "\n").first { $0.hasSuffix("/hevc.mov") }, table)
        XCTAssertTrue(hevcLine.contains(" video 3.0 s hevc "), "ls shows the kind, duration and codec:\n\(table)")
        let stillLine = try XCTUnwrap(table.split(separator: "\n").first { $0.hasSuffix("/still.jpg") }, table)
        XCTAssertTrue(stillLine.contains(" photo "), table)

        let shown = try album(["show", folder + "/photos/hevc.mov"], in: folder).stdout
        XCTAssertTrue(shown.contains("kind") && shown.contains("video"), shown)
        XCTAssertTrue(shown.contains("3.0 s, hevc, 10 fps"), shown)
        XCTAssertTrue(shown.contains("48.857700, 2.295000"), shown)
        let json = try album(["show", "--json", folder + "/photos/h264.mp4"], in: folder).stdout
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        XCTAssertEqual((object["photo"] as? [String: Any])?["kind"] as? String, "video", json)

        try album(["report", "--run", "last", "--out", "r.html"], in: folder)
        let html = try String(contentsOfFile: folder + "/r.html", encoding: .utf8)
        XCTAssertTrue(html.contains("320×240 · video 3.0 s hevc</p>"), "the report's card says a video's kind, length and codec")
        XCTAssertTrue(html.contains("320×240 · video 2.0 s h264</p>"), "the report's card says a video's kind, length and codec")
    }

    func testAVideoImportedBeforeSchema10GainsItsFactsWhenItsBytesAreReadAgain() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try library(in: folder)
        try job("  - import: {from: photos}\n", in: folder)
        try album(["run", "job.yml"], in: folder)
        // As a catalogue migrated from version 9 holds them: the columns NULL, has_gps false.
        let database = folder + "/album/" + Catalogue.databaseName
        _ = try Tool.sqlite(database, "UPDATE photos SET duration = NULL, codec = NULL, frame_rate = NULL, latitude = NULL, longitude = NULL, has_gps = 0",
                            writing: true)
        try album(["run", "job.yml"], in: folder)
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT count(*) FROM photos WHERE codec IS NOT NULL"), ["0"],
                       "an unchanged file is not read again: nothing is hashed on a rerun")
        try album(["run", "--force", "job.yml"], in: folder)
        XCTAssertEqual(try Probe.rows(folder + "/album", """
            SELECT substr(path, instr(path, 'photos/') + 7) || ' ' || coalesce(codec, '-') || ' ' || has_gps
            || ' ' || iif(latitude IS NULL, '-', printf('%.4f', latitude)) FROM photos ORDER BY path
            """), ["badplace.mov h264 0 -", "h264.mp4 h264 1 -33.8568", "hevc.mov hevc 1 48.8577", "still.jpg - 0 -"])
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT count(*) FROM photos"), ["4"], "the same photos, their facts filled in")
    }

    func testLsKindAndSelectKindPickOnlyTheirKind() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try library(in: folder)
        try job("  - import: {from: photos}\n", in: folder)
        try album(["run", "job.yml"], in: folder)
        XCTAssertEqual(Set(try photos(in: folder, listing: ["--kind", "video"]).keys), ["h264.mp4", "hevc.mov", "badplace.mov"])
        XCTAssertEqual(Set(try photos(in: folder, listing: ["--kind", "photo"]).keys), ["still.jpg"])
        let bad = try album(["ls", "--kind", "movie"], in: folder, status: 2)
        XCTAssertTrue(bad.stderr.contains("photo, video"), bad.stderr)

        try job("  - thumbnail: {size: 64x64}\n", select: "{kind: video}", named: "videos.yml", in: folder)
        try album(["run", "videos.yml"], in: folder)
        XCTAssertEqual(try Probe.rows(folder + "/album", """
            SELECT substr(path, instr(path, 'photos/') + 7) FROM steps WHERE stage = 'thumbnail' AND status = 'done' ORDER BY path
            """), ["badplace.mov", "h264.mp4", "hevc.mov"], "select: {kind: video} takes the videos only")
        try job("  - thumbnail: {size: 64x64}\n", select: "{kind: photo}", named: "photos.yml", in: folder)
        try album(["run", "photos.yml"], in: folder)
        XCTAssertEqual(try Probe.rows(folder + "/album", """
            SELECT substr(path, instr(path, 'photos/') + 7) FROM steps WHERE stage = 'thumbnail' AND status = 'done'
            AND run = (SELECT max(id) FROM runs)
            """), ["still.jpg"])
    }

    func testABadKindIsAnErrorAtItsLineAndColumn() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try job("  - thumbnail: {size: 64x64, select: {kind: movies}}\n", named: "bad.yml", in: folder)
        let result = try album(["plan", "bad.yml"], in: folder, status: 2)
        XCTAssertTrue(result.stderr.contains("bad.yml:4:45: error: thumbnail.select.kind must be one of photo, video, found 'movies'"),
                      result.stderr)
    }

    func testExportFromOriginalCopiesAVideoAndAJPEGAsTheyAreAndRefusesAChangedOriginal() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try library(in: folder)
        try job("  - import: {from: photos}\n  - export: {from: original, to: \"out/{name}.{ext}\"}\n", in: folder)
        try album(["run", "job.yml"], in: folder)
        for name in ["h264.mp4", "hevc.mov", "badplace.mov", "still.jpg"] {
            XCTAssertEqual(try TestSupport.hash("\(folder)/out/\(name)"), try TestSupport.hash("\(folder)/photos/\(name)"),
                           "\(name) is copied byte for byte")
        }
        try Probe.require("ffprobe", package: "ffmpeg")
        let probe = try Tool.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=codec_name",
                                  "-of", "csv=p=0", "\(folder)/out/hevc.mov"])
        XCTAssertEqual(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "hevc", probe.stderr)
        try album(["run", "job.yml"], in: folder)  // up to date: nothing copied again, exit 0

        try job("  - export: {from: original, format: png, to: \"out/{name}.{ext}\"}\n", named: "format.yml", in: folder)
        let refused = try album(["plan", "format.yml"], in: folder, status: 2)
        XCTAssertTrue(refused.stderr.contains("export.format does not apply to from: original"), refused.stderr)
        try job("  - export: {from: original, metadata: strip-gps, to: \"out/{name}.{ext}\"}\n", named: "gps.yml", in: folder)
        let gps = try album(["plan", "gps.yml"], in: folder, status: 2)
        XCTAssertTrue(gps.stderr.contains("gps.yml:4:40: error: export.metadata does not apply to from: original"), gps.stderr)

        // The original's bytes change behind album's back; a job without import exports it elsewhere: refused, with why.
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: "\(folder)/photos/h264.mp4"))
        handle.seekToEndOfFile()
        handle.write(Data([0, 0, 0, 8, 0x66, 0x72, 0x65, 0x65]))
        try handle.close()
        try job("  - export: {from: original, to: \"elsewhere/{name}.{ext}\"}\n", named: "nightly.yml", in: folder)
        let changed = try album(["run", "--verbose", "nightly.yml"], in: folder, status: 1)
        XCTAssertTrue(changed.stderr.contains("\(folder)/photos/h264.mp4 has changed since it was imported"), changed.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: "\(folder)/elsewhere/h264.mp4"), "a changed original is not copied")
        XCTAssertEqual(try TestSupport.hash("\(folder)/elsewhere/hevc.mov"), try TestSupport.hash("\(folder)/photos/hevc.mov"),
                       "the others are copied, the run goes on")
    }

    func testISO6709IsReadStrictly() {
        let paris = ISO6709(parsing: "+48.8577+002.2950+035.000/")
        XCTAssertEqual(paris?.latitude, 48.8577)
        XCTAssertEqual(paris?.longitude, 2.295)
        let sydney = try? XCTUnwrap(ISO6709(parsing: "-3345.5+15112.25/"))
        XCTAssertEqual(sydney?.latitude ?? 0, -(33 + 45.5 / 60), accuracy: 1e-9)
        XCTAssertEqual(sydney?.longitude ?? 0, 151 + 12.25 / 60, accuracy: 1e-9)
        let seconds = ISO6709(parsing: "+402646.3-0795756.1CRSWGS_84/")
        XCTAssertEqual(seconds?.latitude ?? 0, 40 + 26 / 60.0 + 46.3 / 3600, accuracy: 1e-9)
        XCTAssertEqual(seconds?.longitude ?? 0, -(79 + 57 / 60.0 + 56.1 / 3600), accuracy: 1e-9)
        for bad in ["", "/", "+48.8577+2.2950/", "48.8577+002.2950/", "+48.8577+002.2950", "+48.8577+002.2950/x",
                    "+91.0+002.0/", "+45.0+181.0/", "+4860.0+00200.0/", "+48.+002.0/", "+48.8577+002.2950+/",
                    "+48.8577+002.2950CRSabc/", "+٤٨.8577+002.2950/", "+48.8577 +002.2950/", "+48.8.5+002.2950/"] {
            XCTAssertNil(ISO6709(parsing: bad), "'\(bad)' is not a point")
        }
    }
}
