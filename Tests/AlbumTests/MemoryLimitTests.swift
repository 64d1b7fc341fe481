import Foundation
import XCTest
import Vips
@testable import Catalogue
@testable import Service

/// album under a real address-space limit (`ulimit -v`): a shortage is named, and never ends the process.
///
/// The limits are far from the edges measured for the debug build (about 210 MB mapped at start; a run with one
/// worker needs about 445 MB), and the address space a run maps does not depend on the machine's load.
final class MemoryLimitTests: XCTestCase {
    /// Runs `album` under `ulimit -v` of `megabytes`.
    func album(_ arguments: [String], limit megabytes: Int, in folder: String) throws -> (status: Int32, stdout: String, stderr: String) {
        try TestSupport.album(arguments, in: folder,
                              through: ["/bin/sh", "-c", "ulimit -v \(megabytes * 1024) && exec \"$0\" \"$@\""])
    }

    func smallPhotos(in folder: String) throws {
        for i in 0..<3 { try Fixture.jpeg(at: "\(folder)/photos/small\(i).jpg", variant: i) }
        try TestSupport.write("""
            version: 1
            stages:
              - import: {from: photos, max-pixels: 400}
              - thumbnail: {size: 64x64}
            """, to: "job.yml", in: folder)
    }

    func testALimitTooLowForOneWorkerStopsWithExitThreeBeforeAnyPhoto() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try smallPhotos(in: folder)
        let result = try album(["run", "job.yml", "--workers", "2"], limit: 300, in: folder)
        XCTAssertEqual(result.status, 3, result.stderr)
        XCTAssert(result.stderr.contains("not enough memory to run: the address-space limit (ulimit -v) is 300 MB"), result.stderr)
        XCTAssert(result.stderr.contains("Raise the limit"), result.stderr)
        XCTAssertFalse(result.stderr.contains("Fatal error"), result.stderr)
        let catalogue = try CatalogueReader(folder: folder + "/album")
        defer { catalogue.close() }
        XCTAssertEqual(try catalogue.runs().count, 0, "no run was begun")
        XCTAssertEqual(try catalogue.allPhotos().count, 0, "no photo was touched")
    }

    func testAPhotoTooLargeForTheLimitFailsWithMemoryNamedAndTheOthersAreDone() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try smallPhotos(in: folder)
        // 196 MP in a progressive JPEG: libjpeg keeps every coefficient (2 bytes a pixel for grey), 392 MB, far more
        // than a 640 MB address space has left after album's 295 MB at start (its libraries: libvips' modules and
        // FFmpeg's take most of it). Its file is small: the picture is flat.
        let x = try Image.coordinates(width: 14_000, height: 14_000).bands(0)
        let bytes = try x.encoded(suffix: ".jpg[interlace,Q=40,strip]")
        try Data(bytes).write(to: URL(fileURLWithPath: folder + "/photos/huge.jpg"))
        XCTAssertLessThan(bytes.count, 8 << 20, "the file itself fits easily")

        let result = try album(["run", "job.yml", "--workers", "2", "--log-format", "json"], limit: 640, in: folder)
        XCTAssertEqual(result.status, 1, "the run finishes with one failed photo, without an abort: \(result.stderr.suffix(3000))")
        let events = try result.stdout.split(separator: "\n").map {
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let steps = events.filter { $0["event"] as? String == "step" }
        let failed = steps.filter { $0["status"] as? String == "failed" }
        XCTAssertEqual(failed.count, 1, "\(failed)")
        XCTAssert((failed.first?["path"] as? String)?.hasSuffix("/huge.jpg") == true, "\(failed)")
        let reason = failed.first?["error"] as? String ?? ""
        XCTAssert(reason.contains("not enough memory: "), reason)
        XCTAssert(reason.contains("the address-space limit (ulimit -v) is 640 MB"), reason)
        let thumbnails = steps.filter { $0["stage"] as? String == "thumbnail" && $0["status"] as? String == "done" }
        XCTAssertEqual(Set(thumbnails.compactMap { ($0["path"] as? String).map { ($0 as NSString).lastPathComponent } }),
                       ["small0.jpg", "small1.jpg", "small2.jpg"])
    }

    /// The arithmetic of docs/scheduler.md, worked by hand: with 8 MB stacks and 211 MB mapped, 512 MB leaves
    /// 512 − 211 − 48 (headroom) − 6 × 8 (the run's threads) = 205 MB; a worker is 3 × 8 + 64 = 88 MB, so one
    /// fits beside a 16 MP (48 MB) budget, and the budget is (205 − 88) / 3 = 39 MP. 1 GB leaves 717 MB: 2 workers and
    /// (717 − 176) / 3 = 180 MP, so the default 100 MP stands. 300 MB leaves −7 MB: refused.
    func testWhatFitsUnderALimit() throws {
        let mb = 1 << 20
        let at512 = MemoryLimit(limit: 512 * mb, inUse: 211 * mb, threadStack: 8 * mb)
        XCTAssertEqual(try at512.plan(workers: 2, megapixels: 100), MemoryLimit.Plan(workers: 1, megapixels: 39))
        XCTAssertEqual(try at512.plan(workers: 1, megapixels: 20), MemoryLimit.Plan(workers: 1, megapixels: 20))
        let at1024 = MemoryLimit(limit: 1024 * mb, inUse: 211 * mb, threadStack: 8 * mb)
        XCTAssertEqual(try at1024.plan(workers: 2, megapixels: 100), MemoryLimit.Plan(workers: 2, megapixels: 100))
        XCTAssertEqual(try at1024.plan(workers: 16, megapixels: 100).workers, 7, "(717 − 48) / 88")
        let at300 = MemoryLimit(limit: 300 * mb, inUse: 211 * mb, threadStack: 8 * mb)
        XCTAssertThrowsError(try at300.plan(workers: 1, megapixels: 100)) { error in
            XCTAssert("\(error)".contains("needs about 443 MB"), "211 + 48 + 48 + 88 + 48: \(error)")
        }
    }
}
