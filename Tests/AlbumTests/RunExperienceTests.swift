import Foundation
import XCTest
@testable import Core
@testable import Catalogue
@testable import Stages

/// What people and CI see of a run: JSON events, annotations, signals and early stops, through the built binary.
final class RunExperienceTests: XCTestCase {
    /// `count` photos, alternately dated, plus the job that exports them full size (slow enough to interrupt).
    func makeJob(in folder: String, photos count: Int, size: Int = 400, extra: String = "") throws {
        for i in 0..<count {
            try Fixture.jpeg(at: String(format: "\(folder)/photos/p%03d.jpg", i), width: size, height: size * 2 / 3,
                             taken: i % 2 == 0 ? "2008:04:\(String(format: "%02d", 1 + i % 28)) 10:00:00" : nil, variant: i)
        }
        try TestSupport.write("""
            version: 1
            catalogue: album
            stages:
              - import: {from: photos}
              - thumbnail: {}
              - export: {from: image, to: "out/{name}.jpg"}
            \(extra)
            """, to: "job.yml", in: folder)
    }

    func events(_ stdout: String) throws -> [[String: Any]] {
        try stdout.split(separator: "\n").map { line in
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not JSON: \(line)")
        }
    }

    func testJSONEventsAreJSONLinesWhoseCountsMatchTheCatalogue() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try makeJob(in: folder, photos: 8, size: 200)
        try TestSupport.write("not a photo", to: "photos/zz-broken.jpg", in: folder)
        let result = try TestSupport.album(["run", "job.yml", "--log-format", "json"], in: folder)
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertFalse(result.stderr.contains("stage        done"), "no text summary in JSON mode")
        let events = try events(result.stdout)
        XCTAssertEqual(events.first?["event"] as? String, "run-started")
        XCTAssertEqual(events.first?["photos"] as? Int, 9)
        let finished = try XCTUnwrap(events.last)
        XCTAssertEqual(finished["event"] as? String, "run-finished")
        XCTAssertEqual(finished["status"] as? String, "failed")
        XCTAssertEqual(finished["exit"] as? Int, 1)
        let steps = events.filter { $0["event"] as? String == "step" }
        XCTAssertEqual(steps.count, 9 + 8 + 8, "one step per photo and stage; the broken file stops at import")
        let failed = steps.filter { $0["status"] as? String == "failed" }
        XCTAssertEqual(failed.count, 1)
        XCTAssertEqual(failed.first?["error"] as? String, "not an image: it looks like text")
        XCTAssert(failed.first?["photo"] is NSNull)

        let stages = try XCTUnwrap(finished["stages"] as? [String: [String: Int]])
        let catalogue = try Catalogue(folder: folder + "/album", create: false)
        defer { catalogue.close() }
        let run = try XCTUnwrap(catalogue.runs().first)
        let recorded = try catalogue.stepCounts(run: run.id)
        for stage in StageRegistry.names {
            for status in StepRecord.Status.allCases {
                XCTAssertEqual(stages[stage.rawValue]?[status.rawValue] ?? -1, recorded[stage]?[status] ?? 0, "\(stage) \(status)")
                let streamed = steps.filter { $0["stage"] as? String == stage.rawValue && $0["status"] as? String == status.rawValue }.count
                XCTAssertEqual(streamed, recorded[stage]?[status] ?? 0, "step events for \(stage) \(status)")
            }
        }
        XCTAssertEqual(run.status, "failed")
        let listed = try TestSupport.album(["ls", "--catalogue", "album", "--json"], in: folder)
        let photos = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [Any])
        XCTAssertEqual(photos.count, stages["import"]?["done"], "every imported photo is listed")
    }

    func testGitHubFormatAnnotatesFailures() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try makeJob(in: folder, photos: 2, size: 100)
        try TestSupport.write("", to: "photos/empty, really.jpg", in: folder)
        let result = try TestSupport.album(["run", "job.yml", "--log-format", "github"], in: folder)
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stdout, "::error file=\(folder)/photos/empty%2C really.jpg,title=album import failed::not an image: the file is empty (0 bytes)\n")
        XCTAssert(result.stderr.contains("failed (1):"), result.stderr)
    }

    func testFailFastStopsStartingPhotos() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try makeJob(in: folder, photos: 6, size: 100)
        try TestSupport.write("<html>", to: "photos/a-first.jpg", in: folder)
        let result = try TestSupport.album(["run", "job.yml", "--workers", "1", "--fail-fast", "--log-format", "json"], in: folder)
        XCTAssertEqual(result.status, 1)
        let events = try events(result.stdout)
        XCTAssert(events.contains { $0["event"] as? String == "stopping" })
        XCTAssertEqual(events.filter { $0["event"] as? String == "step" }.count, 1, "nothing started after the failure")
        XCTAssertEqual(events.last?["status"] as? String, "failed")
    }

    func testSIGINTFinishesPhotosInFlightAndTheRerunResumes() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try makeJob(in: folder, photos: 40, size: 1600)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestSupport.albumBinary)
        process.arguments = ["run", "job.yml", "--workers", "1", "--log-format", "json"]
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Interrupt as soon as the first export is reported, so the run is surely mid-way.
        var buffer = Data()
        while !String(decoding: buffer, as: UTF8.self).contains(#""stage":"export","status":"done""#) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            buffer += chunk
        }
        kill(process.processIdentifier, SIGINT)
        buffer += out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 130)
        let events = try events(String(decoding: buffer, as: UTF8.self))
        XCTAssertEqual(events.last?["status"] as? String, "interrupted")
        let exported = try FileManager.default.contentsOfDirectory(atPath: folder + "/out").filter { !$0.hasPrefix(".") }
        XCTAssertGreaterThan(exported.count, 0)
        XCTAssertLessThan(exported.count, 40, "the run stopped early")

        let rerun = try TestSupport.album(["run", "job.yml", "--log-format", "json"], in: folder)
        XCTAssertEqual(rerun.status, 0, rerun.stderr)
        let stages = try XCTUnwrap(try self.events(rerun.stdout).last?["stages"] as? [String: [String: Int]])
        XCTAssertEqual(stages["export"]?["skipped"], exported.count, "every export already written is skipped")
        XCTAssertEqual((stages["export"]?["done"] ?? 0) + exported.count, 40)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder + "/out").filter { $0.hasPrefix(".") }, [],
                       "no temporary files left behind")
    }
}
