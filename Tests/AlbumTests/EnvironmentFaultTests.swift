import Foundation
import XCTest
import SQLite
import Vips
@testable import Catalogue

/// Faults in the environment: a full disk (a file-size limit stands in), an unwritable catalogue, few descriptors.
final class EnvironmentFaultTests: XCTestCase {
    /// A photo of seeded noise: JPEG cannot compress it, so its exports are large.
    func noisyJPEG(at path: String, size: Int, seed: UInt64) throws {
        var state = seed
        let pixels = (0..<size * size * 3).map { _ -> UInt8 in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        let bytes = try Image.fromPixels(pixels, width: size, height: size, bands: 3).encoded(as: .jpeg, quality: 95, strip: true)
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    func testAWriteThatRunsOutOfSpaceFailsItsStepCleanly() throws {
        let folder = try TestSupport.temporaryFolder(self)
        for i in 0..<3 { try noisyJPEG(at: "\(folder)/photos/n\(i).jpg", size: 400, seed: UInt64(i + 1)) }
        let originals = try (0..<3).map { try TestSupport.hash("\(folder)/photos/n\($0).jpg") }
        try TestSupport.write("""
            version: 1
            stages:
              - import: {from: photos}
              - thumbnail: {size: 64x64}
              - export: {from: image, to: "out/{name}.jpg", quality: 100}
            """, to: "job.yml", in: folder)
        // Files over 256 KiB cannot be written: the full-size exports are larger, thumbnails and the catalogue smaller.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/prlimit")
        process.arguments = ["--fsize=262144", TestSupport.albumBinary, "run", "job.yml", "--log-format", "json"]
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 1, "the run finishes; the exports fail")
        let events = try String(decoding: stdout, as: UTF8.self).split(separator: "\n").map {
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let exports = events.filter { $0["stage"] as? String == "export" }
        XCTAssertEqual(exports.count, 3)
        for export in exports {
            XCTAssertEqual(export["status"] as? String, "failed")
            XCTAssert((export["error"] as? String)?.contains("File too large") == true, "\(export)")
        }
        XCTAssertEqual(events.filter { $0["stage"] as? String == "thumbnail" && $0["status"] as? String == "done" }.count, 3)
        let left = (try? FileManager.default.contentsOfDirectory(atPath: folder + "/out")) ?? []
        XCTAssertEqual(left, [], "no partial file under a final name, no temporary file left")
        let catalogue = try Catalogue(folder: folder + "/album", create: false)
        defer { catalogue.close() }
        XCTAssertEqual(try catalogue.renditions(kind: .export), [], "the catalogue records no export that was not written")
        XCTAssertEqual(try catalogue.database.query("PRAGMA integrity_check") { $0.text(0) }, ["ok"])
        XCTAssertEqual(try (0..<3).map { try TestSupport.hash("\(folder)/photos/n\($0).jpg") }, originals)
    }

    func testAnUnwritableCatalogueFolderStopsAtOnceWithExitThree() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try Fixture.jpeg(at: "\(folder)/photos/a.jpg")
        try TestSupport.write("version: 1\ncatalogue: locked/album\nstages:\n  - import: {from: photos}\n", to: "job.yml", in: folder)
        try FileManager.default.createDirectory(atPath: folder + "/locked", withIntermediateDirectories: true)
        // Root ignores permission bits, but not the immutable attribute.
        XCTAssertEqual(try run("/usr/bin/chattr", ["+i", folder + "/locked"]), 0)
        addTeardownBlock { _ = try? self.run("/usr/bin/chattr", ["-i", folder + "/locked"]) }
        let result = try TestSupport.album(["run", "job.yml"], in: folder)
        XCTAssertEqual(result.status, 3, result.stderr)
        XCTAssert(result.stderr.contains("\(folder)/locked/album"), "the message names the folder: \(result.stderr)")
    }

    func testDescriptorsDoNotLeakAcrossARun() throws {
        let folder = try TestSupport.temporaryFolder(self)
        // Each photo has its own size, so no two files have the same bytes (one pixel's difference can vanish in
        // JPEG's quantisation, and two files with the same bytes are one photo): all 150 must go through.
        for i in 0..<150 {
            try Fixture.jpeg(at: "\(folder)/photos/p\(i).jpg", width: 64 + i % 10, height: 48 + i / 10, variant: i)
        }
        try TestSupport.write("version: 1\nstages:\n  - import: {from: photos}\n  - thumbnail: {size: 32x32}\n  - export: {from: thumbnail, to: \"out/{name}.jpg\"}\n",
                              to: "job.yml", in: folder)
        // 40 descriptors: enough for the runtime, the catalogue and two workers, far too few if any leaked per photo.
        let log = folder + "/stderr.txt"
        let status = try run("/usr/bin/prlimit", ["--nofile=40", TestSupport.albumBinary, "run", "job.yml", "--workers", "2"],
                             in: folder, stderr: log)
        let stderr = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        XCTAssertEqual(status, 0, "album's status (a signal's number if one ended it); its stderr ends:\n\(stderr.suffix(3000))")
        let catalogue = try CatalogueReader(folder: folder + "/album")
        defer { catalogue.close() }
        XCTAssertEqual(try catalogue.allPhotos().count, 150, "every photo imported")
        let run = try XCTUnwrap(catalogue.runs().first)
        XCTAssertEqual(try catalogue.stepCounts(run: run.id), [.import: [.done: 150], .thumbnail: [.done: 150], .export: [.done: 150]])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder + "/out").count, 150, "every photo exported")
    }

    /// Runs `tool` and returns its exit status; its standard error goes to the file `stderr`, or nowhere.
    @discardableResult
    func run(_ tool: String, _ arguments: [String], in folder: String? = nil, stderr: String? = nil) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        if let folder { process.currentDirectoryURL = URL(fileURLWithPath: folder) }
        process.standardOutput = FileHandle.nullDevice
        if let stderr {
            _ = FileManager.default.createFile(atPath: stderr, contents: nil)
            process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: stderr))
        } else {
            process.standardError = FileHandle.nullDevice
        }
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}
