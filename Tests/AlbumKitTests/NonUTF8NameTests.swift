import Foundation
import XCTest
@testable import AlbumKit
import System
import Vips

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
}
