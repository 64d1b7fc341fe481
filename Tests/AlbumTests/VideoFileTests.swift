import Foundation
import Video
import XCTest

/// The FFmpeg wrapper's guards on what it opens, on clips the `ffmpeg` command makes here: only a regular file, only
/// as a plain local file, only through the QuickTime/MP4 demuxer.
final class VideoFileTests: XCTestCase {
    /// Makes `name` in `folder`: a 1-second 160×120 test pattern in H.264.
    private func clip(_ name: String, in folder: String) throws -> String {
        try Probe.require("ffmpeg", package: "ffmpeg")
        let path = folder + "/" + name
        let made = try Tool.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=10:duration=1",
                                 "-pix_fmt", "yuv420p", "-c:v", "libx264", "-f", "mp4", path])
        XCTAssertEqual(made.status, 0, made.stderr)
        return path
    }

    /// A file whose name reads as a URL (`http:…`, given relative, as FFmpeg would take it) opens as the file it is;
    /// a name of a URL no file has is "No such file or directory", never a connection.
    func testANameThatReadsAsAURLIsOnlyAFile() throws {
        let folder = try TestSupport.temporaryFolder(self)
        _ = try clip("http:127.0.0.1:9.mp4", in: folder)
        let here = FileManager.default.currentDirectoryPath
        XCTAssertTrue(FileManager.default.changeCurrentDirectoryPath(folder))
        defer { FileManager.default.changeCurrentDirectoryPath(here) }
        XCTAssertEqual(try VideoFile(path: "http:127.0.0.1:9.mp4").facts.width, 160)
        XCTAssertNotNil(try VideoFile(path: "http:127.0.0.1:9.mp4").frame(at: 0.5))
        XCTAssertThrowsError(try VideoFile(path: "http://127.0.0.1:9/clip.mp4")) { error in
            let error = error as? VideoError
            XCTAssertEqual(error?.call, "open")
            XCTAssertEqual(error?.message, "No such file or directory")
        }
    }

    /// An `ffconcat` script that names a real clip (FFmpeg's concat demuxer would play it) is refused: it is not in
    /// the QuickTime/MP4 family, so FFmpeg never reads the clip it names.
    func testAConcatScriptDoesNotReadTheFileItNames() throws {
        let folder = try TestSupport.temporaryFolder(self)
        _ = try clip("real.mp4", in: folder)
        let script = try TestSupport.write("ffconcat version 1.0\nfile 'real.mp4'\n", to: "list.mov", in: folder)
        XCTAssertThrowsError(try VideoFile(path: script)) { error in
            XCTAssertEqual((error as? VideoError)?.call, "avformat_open_input", "\(error)")
        }
    }

    /// A FIFO named like a clip is refused at once (nothing writes to it: an open or a read would block).
    func testAFIFOIsRefusedWithoutBlocking() throws {
        let folder = try TestSupport.temporaryFolder(self)
        XCTAssertEqual(mkfifo(folder + "/fifo.mov", 0o644), 0)
        XCTAssertThrowsError(try VideoFile(path: folder + "/fifo.mov")) { error in
            XCTAssert("\(error)".contains("not a regular file"), "\(error)")
        }
    }
}
