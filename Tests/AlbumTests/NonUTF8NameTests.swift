import Foundation
import XCTest
import System
import Vips
@testable import Core
@testable import JobFile
@testable import Plan

/// A photo whose file name is not UTF-8 (`caf\xE9.png`, "café" in Latin-1) is an ordinary photo: every system call
/// on its path goes through `NativePath` (System), so run, rerun, verify and plan all find the same file.
final class NonUTF8NameTests: XCTestCase {
    static let name = "caf" + NativePath.string([0xE9]) + ".png"

    /// A folder with `photos/caf\xE9.png` (raw bytes on disk) and a job that imports, thumbnails and exports it.
    func album() throws -> String {
        let folder = try TestSupport.temporaryFolder(self)
        let pixels = Fixture.quadrantPixels(width: 96, height: 64)
        let png = try Image.fromPixels(pixels, width: 96, height: 64, bands: 3).encoded(as: .png, quality: 90, strip: true)
        try AtomicFile.write(png, to: folder + "/photos/" + NonUTF8NameTests.name)
        try TestSupport.write("""
            version: 1
            stages:
              - import: {from: photos}
              - thumbnail: {size: 32x32}
              - export: {from: thumbnail, to: "out/{name}.jpg"}
            """, to: "job.yml", in: folder)
        return folder
    }

    /// The raw names in `folder`, hex-encoded, read by Python (not by the code under test).
    func rawNames(_ folder: String) throws -> [String] {
        let script = "import os, sys; print(' '.join(sorted(n.hex() for n in os.listdir(sys.argv[1].encode()))))"
        let result = try Tool.run(["/usr/bin/python3", "-c", script, folder])
        XCTAssertEqual(result.status, 0, result.stderr)
        return result.stdout.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
    }

    func hex(_ text: String) -> String { text.utf8.map { String(format: "%02x", $0) }.joined() }

    func stages(_ stdout: String) throws -> [String: [String: Int]] {
        let last = try XCTUnwrap(stdout.split(separator: "\n").last)
        let event = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        return try XCTUnwrap(event["stages"] as? [String: [String: Int]])
    }

    func testItRunsRerunsAsUpToDateAndVerifies() throws {
        let folder = try album()
        XCTAssertEqual(try rawNames(folder + "/photos"), [hex("caf") + "e9" + hex(".png")],
                       "the fixture is named with the Latin-1 byte itself")

        let first = try TestSupport.album(["run", "job.yml", "--log-format", "json"], in: folder)
        XCTAssertEqual(first.status, 0, first.stderr)
        let done = try stages(first.stdout)
        XCTAssertEqual(done["import"]?["done"], 1, first.stdout)
        XCTAssertEqual(done["thumbnail"]?["done"], 1, first.stdout)
        XCTAssertEqual(done["export"]?["done"], 1, first.stdout)
        // The export carries the original's name ({name}: without its extension), under the same raw byte.
        XCTAssertEqual(try rawNames(folder + "/out"), [hex("caf") + "e9" + hex(".jpg")])

        let rerun = try TestSupport.album(["run", "job.yml", "--log-format", "json"], in: folder)
        XCTAssertEqual(rerun.status, 0, rerun.stderr)
        let again = try stages(rerun.stdout)
        for stage in ["import", "thumbnail", "export"] {
            XCTAssertEqual(again[stage]?["skipped"], 1, "\(stage) is up to date: \(rerun.stdout)")
            XCTAssertEqual(again[stage]?["done"] ?? 0, 0, "\(stage) did nothing again")
        }

        let verify = try TestSupport.album(["verify", "--catalogue", "album"], in: folder)
        XCTAssertEqual(verify.status, 0, "verify finds the original and its export: \(verify.stdout)\(verify.stderr)")
    }

    /// Passes once `Planner` stats through `FileStatus` (issue 15: its raw `lstat` missed the file, so plan said the
    /// import, and the stages after it, were still to do).
    func testPlanSaysNothingIsToDoAfterARun() throws {
        let folder = try album()
        let run = try TestSupport.album(["run", "job.yml"], in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        let plan = try Planner(job: try JobLoader.load(path: folder + "/job.yml")).plan()
        for stage in [StageName.import, .thumbnail, .export] {
            XCTAssertEqual(plan.counts[stage]?.toDo, 0, "\(stage): \(plan.entries)")
            XCTAssertEqual(plan.counts[stage]?.upToDate, 1, "\(stage): \(plan.entries)")
        }
    }

    /// Runs the built album with arguments given as raw bytes (hex here, unhexed by Python, which `execv`s album
    /// with them), and with `stdin` as raw bytes: no Swift string, so no UTF-8 repair, between the test and album.
    func albumWithBytes(_ arguments: [[UInt8]], in folder: String, stdin: [UInt8]? = nil) throws -> (status: Int32, stdout: String, stderr: String) {
        let script = """
            import os, sys
            data = os.environ.get("ALBUM_TEST_STDIN_HEX")
            if data is not None:
                r, w = os.pipe(); os.write(w, bytes.fromhex(data)); os.close(w); os.dup2(r, 0)
            os.execv(sys.argv[1], [sys.argv[1]] + [bytes.fromhex(a) for a in sys.argv[2:]])
            """
        let hexed = arguments.map { $0.map { String(format: "%02x", $0) }.joined() }
        let environment = stdin.map { ["ALBUM_TEST_STDIN_HEX": $0.map { String(format: "%02x", $0) }.joined()] } ?? [:]
        return try TestSupport.album(hexed, in: folder, through: ["/usr/bin/python3", "-c", script], environment: environment)
    }

    /// Issue 29, item 10: a name that is not UTF-8, given as an argument or as a line on standard input, names its
    /// own file (album reads argv's and stdin's bytes), for import, show and ls --path alike.
    func testANameThatIsNotUTF8WorksAsAnArgumentAndOnStandardInput() throws {
        let folder = try album()
        let raw = Array("photos/caf".utf8) + [0xE9] + Array(".png".utf8)
        let imported = try albumWithBytes([Array("import".utf8), raw, Array("--catalogue".utf8), Array("album".utf8)], in: folder)
        XCTAssertEqual(imported.status, 0, "the argument's bytes name the file: \(imported.stderr)")
        let ids = try TestSupport.album(["ls", "-q", "--catalogue", "album"], in: folder)
        XCTAssertEqual(ids.stdout.split(separator: "\n").count, 1, ids.stdout + ids.stderr)

        let shown = try albumWithBytes([Array("show".utf8), raw, Array("--catalogue".utf8), Array("album".utf8)], in: folder)
        XCTAssertEqual(shown.status, 0, shown.stderr)
        XCTAssert(shown.stdout.hasPrefix("photo    " + ids.stdout.prefix(8)), shown.stdout)

        let glob = Array("caf".utf8) + [0xE9] + Array(".png".utf8)
        let listed = try albumWithBytes([Array("ls".utf8), Array("-q".utf8), Array("--path".utf8), glob, Array("--catalogue".utf8), Array("album".utf8)], in: folder)
        XCTAssertEqual(listed.status, 0, listed.stderr)
        XCTAssertEqual(listed.stdout, ids.stdout, "--path with the raw name matches the photo")
        XCTAssertFalse(listed.stderr.contains("matches no photo"), listed.stderr)

        let fromList = try albumWithBytes([Array("import".utf8), Array("-".utf8), Array("--catalogue".utf8), Array("second".utf8)],
                                          in: folder, stdin: raw + [0x0D, 0x0A])
        XCTAssertEqual(fromList.status, 0, "a line of standard input is bytes too: \(fromList.stderr)")
        let second = try TestSupport.album(["ls", "-q", "--catalogue", "second"], in: folder)
        XCTAssertEqual(second.stdout, ids.stdout, "the same photo, by its bytes")
    }
}
