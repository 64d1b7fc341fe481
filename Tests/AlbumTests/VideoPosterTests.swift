import Foundation
import XCTest

/// The `poster:` option end to end through the built binary, on a clip the `ffmpeg` command makes with a key frame
/// every second (`-g 10` at 10 frames a second), so the frame each value picks is known: a time or a percentage is
/// the frame at that time, one past the end the last key frame, said in the step's message; changing it re-renders
/// the video's thumbnail and no photo's; `auto`, written out or not, hashes as no option at all (a video's parameters hash
/// is a still's, so renditions made before the option existed stay up to date); a bad value is refused at
/// its place in the job file.
final class VideoPosterTests: XCTestCase {
    /// Makes a clip or a still with the `ffmpeg` command (fixtures only: album never runs it).
    private func ffmpeg(_ arguments: [String]) throws {
        try Probe.require("ffmpeg", package: "ffmpeg")
        let result = try Tool.run(["ffmpeg", "-nostdin", "-v", "error", "-y"] + arguments)
        XCTAssertEqual(result.status, 0, "ffmpeg \(arguments): \(result.stderr)")
    }

    /// Runs a job whose thumbnail stage has `options` (and an export with `exportOptions`).
    @discardableResult
    private func run(_ options: String, export exportOptions: String = "", in folder: String) throws -> (status: Int32, output: String) {
        try TestSupport.write("""
            version: 1
            catalogue: album
            stages:
              - import: {from: photos}
              - thumbnail: {size: 120x120\(options)}
              - export: {to: "out/{name}.jpg", max-size: 160\(exportOptions)}
            """, to: "job.yml", in: folder)
        let result = try TestSupport.album(["run", "job.yml"], in: folder)
        return (result.status, result.stdout + result.stderr)
    }

    /// The newest run's step of `stage` for the file named `name`: "status: message", or "no step" (a skipped step
    /// is not recorded).
    private func step(_ name: String, _ stage: String = "thumbnail", in folder: String) throws -> String {
        try Probe.rows(folder + "/album", """
            SELECT status || ': ' || coalesce(error, '') FROM steps WHERE stage = '\(stage)' AND path LIKE '%/\(name)'
            AND run = (SELECT max(id) FROM runs)
            """).first ?? "no step"
    }

    func testThePosterOptionPicksTheFrameItSaysAndAChangeReRendersOnlyTheVideos() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let photos = folder + "/photos"
        try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
        // 10 s at 10 frames a second, a key frame every 10 frames (every second), no scene-cut key frames.
        try ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=10", "-t", "10", "-pix_fmt", "yuv420p", "-c:v", "libx264",
                    "-g", "10", "-keyint_min", "10", "-sc_threshold", "0", photos + "/clip.mp4"])
        try ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=1", "-frames:v", "1", photos + "/still.jpg"])

        var result = try run("", in: folder)
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertEqual(try step("clip.mp4", in: folder), "done: poster frame at 1 s", "auto: the key frame at or before 10 %")
        XCTAssertEqual(try step("still.jpg", in: folder).trimmingCharacters(in: .whitespaces), "done:")

        // With no `poster:` (or `auto`), a video's renditions have the stage's own parameters, as a JPEG's do: the
        // ones made before the option existed are up to date.
        for kind in ["thumbnail", "export"] {
            XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT count(DISTINCT params_hash) FROM renditions WHERE kind = '\(kind)'"),
                           ["1"], "\(kind): the video's parameters hash is the still's")
        }

        // `auto` written out is the default: nothing to do.
        result = try run(", poster: auto", export: ", poster: auto", in: folder)
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertEqual(try step("clip.mp4", in: folder), "no step", "auto hashes as no option: up to date")
        XCTAssertEqual(try step("clip.mp4", "export", in: folder), "no step")

        // A time between key frames is that frame itself, not the key frame before it; a percentage of the duration.
        result = try run(", poster: 3.5s", export: ", poster: 25%", in: folder)
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertEqual(try step("clip.mp4", in: folder), "done: poster frame at 3.5 s")
        XCTAssertEqual(try step("clip.mp4", "export", in: folder), "done: poster frame at 2.5 s")
        XCTAssertEqual(try step("still.jpg", in: folder), "no step", "a photo ignores poster: its thumbnail is up to date")
        XCTAssertEqual(try step("still.jpg", "export", in: folder), "no step")
        let early = try Probe.decodeJPEG(try Probe.newestThumbnail(folder + "/album", original: photos + "/clip.mp4"))

        // The same again: up to date.
        result = try run(", poster: 3.5s", export: ", poster: 25%", in: folder)
        XCTAssertEqual(try step("clip.mp4", in: folder), "no step", result.output)

        // Past the end: the last key frame, and the message says so. A changed option re-renders the video.
        result = try run(", poster: 60s", export: ", poster: 100%", in: folder)
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertEqual(try step("clip.mp4", in: folder),
                       "done: poster frame at 9 s (poster: 60s is past the end of the video (10 s): its last key frame)")
        XCTAssertEqual(try step("clip.mp4", "export", in: folder),
                       "done: poster frame at 9 s (poster: 100% is past the end of the video (10 s): its last key frame)")
        XCTAssertEqual(try step("still.jpg", in: folder), "no step")
        let late = try Probe.decodeJPEG(try Probe.newestThumbnail(folder + "/album", original: photos + "/clip.mp4"))
        XCTAssertEqual(early.rgb.count, late.rgb.count)
        XCTAssertNotEqual(early.rgb, late.rgb, "testsrc2 moves: the frames at 3.5 s and 9 s differ")
    }

    func testABadPosterValueIsRefusedAtItsPlace() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let cases = [
            ("-3s", "thumbnail.poster must not be negative, found '-3s'"),
            ("150%", "thumbnail.poster must be at most 100% of the duration, found '150%'"),
            ("3", "thumbnail.poster must be auto, a percentage of the duration (25%) or a time in seconds (3s, 3.5s), found '3'"),
            ("soon", "thumbnail.poster must be auto, a percentage of the duration (25%) or a time in seconds (3s, 3.5s), found 'soon'"),
            ("1e3s", "thumbnail.poster must be auto, a percentage of the duration (25%) or a time in seconds (3s, 3.5s), found '1e3s'"),
            ("90000s", "thumbnail.poster must be at most 86400s (album's longest video), found '90000s'"),
        ]
        for (text, message) in cases {
            try TestSupport.write("version: 1\nstages:\n  - thumbnail: {poster: \(text)}\n", to: "j.yml", in: folder)
            let result = try TestSupport.album(["check", "j.yml"], in: folder)
            XCTAssertEqual(result.status, 2, text)
            let caret = String(repeating: " ", count: 24) + "^"
            XCTAssertEqual(result.stderr, "j.yml:3:25: error: \(message)\n  - thumbnail: {poster: \(text)}\n\(caret)\n", text)
        }
        try TestSupport.write("version: 1\nstages:\n  - export: {to: \"out/{name}.jpg\", poster: 12.5%}\n", to: "ok.yml", in: folder)
        let fine = try TestSupport.album(["check", "ok.yml"], in: folder)
        XCTAssertEqual(fine.status, 0, fine.stdout + fine.stderr)
    }
}
