import Foundation
import XCTest
import SQLite
import System
import Vips

/// Real albums are full of damage: every bad entry is explained, every good photo is done, nothing is touched.
final class HostileAlbumTests: XCTestCase {
    /// Writes `bytes` at a path that may hold non-UTF-8 bytes (see `NativePath`).
    func writeRaw(_ bytes: [UInt8], to path: String) throws {
        let fd = NativePath.withCString(path) { open($0, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
        XCTAssertGreaterThanOrEqual(fd, 0, "create \(path)")
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    func testAHostileAlbumRunsToTheEndAndExplainsEveryBadEntry() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let photos = folder + "/photos"
        // Good photos, some under odd names.
        let goodNames = ["plain.jpg", "with space.jpg", "new\nline.jpg", "-leading-dash.jpg", "ünïcødé 写真 📷.jpg",
                         "sub/deeper/nested.JPG"]
        for (i, name) in goodNames.enumerated() { try Fixture.jpeg(at: "\(photos)/\(name)", width: 160, height: 120, variant: i) }
        let latin1 = photos + "/caf" + NativePath.string([0xE9]) + ".jpg"  // "café" in Latin-1: not UTF-8
        try Fixture.jpeg(at: folder + "/scratch.jpg", width: 160, height: 120, variant: 99)
        try writeRaw(Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/scratch.jpg"))), to: latin1)
        try Fixture.jpeg(at: "\(photos)/too-big.jpg", width: 1600, height: 1000, variant: 7)  // over max-pixels: 1 MP

        // Damaged and fake files.
        let good = try Data(contentsOf: URL(fileURLWithPath: "\(photos)/plain.jpg"))
        try Data().write(to: URL(fileURLWithPath: "\(photos)/zero.jpg"))
        try good.prefix(good.count / 3).write(to: URL(fileURLWithPath: "\(photos)/truncated.jpg"))
        var corrupt = good
        for i in stride(from: 700, to: corrupt.count - 10, by: 37) { corrupt[i] ^= 0x5A }
        try corrupt.write(to: URL(fileURLWithPath: "\(photos)/corrupt.jpg"))
        try TestSupport.write("<!DOCTYPE html><html><body>Not found</body></html>", to: "photos/error-page.jpg", in: folder)
        try TestSupport.write("just some notes\n", to: "photos/notes.png", in: folder)
        try TestSupport.write("%PDF-1.4\n%âãÏÓ\n", to: "photos/scan.jpeg", in: folder)
        // Entries that are not regular files.
        try FileManager.default.createDirectory(atPath: "\(photos)/folder.jpg", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: "\(photos)/dangling.jpg", withDestinationPath: "\(photos)/nowhere.jpg")
        try FileManager.default.createSymbolicLink(atPath: "\(photos)/loop-a.jpg", withDestinationPath: "\(photos)/loop-b.jpg")
        try FileManager.default.createSymbolicLink(atPath: "\(photos)/loop-b.jpg", withDestinationPath: "\(photos)/loop-a.jpg")
        XCTAssertEqual(mkfifo("\(photos)/fifo.jpg", 0o644), 0, "a FIFO named like a photo")

        let originals = try FileManager.default.subpathsOfDirectory(atPath: photos).map { photos + "/" + $0 }
            .filter { var s = stat(); return lstat($0, &s) == 0 && (s.st_mode & S_IFMT) == S_IFREG }
        let before = try originals.map(TestSupport.hash)

        try TestSupport.write("""
            version: 1
            stages:
              - import: {from: photos, max-pixels: 1}
              - thumbnail: {size: 64x64}
              - export: {from: thumbnail, to: "out/{name}.jpg"}
            """, to: "job.yml", in: folder)
        let result = try TestSupport.album(["run", "job.yml", "--log-format", "json"], in: folder)
        XCTAssertEqual(result.status, 1, result.stderr)
        let events = try result.stdout.split(separator: "\n").map {
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let steps = events.filter { $0["event"] as? String == "step" }
        func outcome(_ name: String) -> (status: String, error: String?)? {
            guard let step = steps.first(where: { ($0["path"] as? String)?.hasSuffix("/" + name) == true && $0["stage"] as? String == "import" })
            else { return nil }
            return (step["status"] as! String, (step["error"] as? String) ?? (step["reason"] as? String))
        }
        let expectedFailures: [String: String] = [
            "zero.jpg": "not an image: the file is empty",
            "error-page.jpg": "not an image: it is an HTML page",
            "notes.png": "not an image: it looks like text",
            "scan.jpeg": "unsupported format: a PDF document",
            "too-big.jpg": "over the max-pixels limit of 1",
        ]
        for (name, reason) in expectedFailures {
            let step = try XCTUnwrap(outcome(name), name)
            XCTAssertEqual(step.status, "failed", name)
            XCTAssert(step.error?.contains(reason) == true, "\(name): \(step.error ?? "nil")")
        }
        for name in ["truncated.jpg", "corrupt.jpg"] {
            let failed = steps.filter { ($0["path"] as? String)?.hasSuffix("/" + name) == true && $0["status"] as? String == "failed" }
            XCTAssertEqual(failed.count, 1, "\(name) fails once, with a reason")
            let error = failed.first?["error"] as? String ?? ""
            XCTAssert(error.contains("VipsJpeg") || error.contains("damaged image data"), "\(name): libvips' reason, \(error)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: "\(folder)/out/\(name)"), "no thumbnail for a damaged file")
        }
        XCTAssertEqual(outcome("fifo.jpg")?.status, "skipped")
        XCTAssert(outcome("fifo.jpg")?.error?.contains("a FIFO") == true)
        XCTAssertEqual(outcome("dangling.jpg")?.status, "skipped", "links are not followed by default")
        XCTAssertNil(outcome("folder.jpg"), "a folder is walked into, never opened")

        // Every good photo, odd names included, is imported, thumbnailed and exported.
        for name in ["plain", "with space", "new_line", "-leading-dash", "ünïcødé 写真 📷", "nested", "caf" + NativePath.string([0xE9])] {
            // Through NativePath: the Latin-1 photo's export is named with the raw byte, as its original is.
            XCTAssert(FileSystem.exists("\(folder)/out/\(name).jpg"), "exported \(name)")
        }
        let stages = try XCTUnwrap(events.last?["stages"] as? [String: [String: Int]])
        XCTAssertEqual(stages["thumbnail"]?["done"], 7)
        XCTAssertEqual(stages["export"]?["done"], 7)

        // Originals are byte-identical, and the catalogue is sound.
        XCTAssertEqual(try originals.map(TestSupport.hash), before)
        let database = try Database(path: folder + "/album/catalogue.db", mode: .readOnly)
        XCTAssertEqual(try database.query("PRAGMA integrity_check") { $0.text(0) }, ["ok"])
        database.close()
    }

    func testAFolderThatCannotBeListedFailsItsImportAndTheRunSaysSo() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try Fixture.jpeg(at: "\(folder)/photos/open/a.jpg", variant: 1)
        try Fixture.jpeg(at: "\(folder)/photos/closed/b.jpg", variant: 2)
        try TestSupport.write("version: 1\nstages:\n  - import: {from: photos}\n", to: "job.yml", in: folder)
        // Root lists any folder, so as root album runs as nobody (setpriv), who may write the test's folder and
        // read its photos but not list a folder with mode 000.
        XCTAssertEqual(chmod(folder, 0o777), 0)
        XCTAssertEqual(chmod("\(folder)/photos/closed", 0o000), 0)
        addTeardownBlock { _ = chmod("\(folder)/photos/closed", 0o755) }
        let wrapper = getuid() == 0 ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : []
        let result = try TestSupport.album(["run", "job.yml"], in: folder, through: wrapper)
        XCTAssertEqual(result.status, 1, "a folder left out is a failure, never an empty folder: \(result.stderr)")
        XCTAssert(result.stderr.contains("\(folder)/photos/closed: cannot read this folder: Permission denied; nothing in it was imported"),
                  result.stderr)
        let listed = try TestSupport.album(["ls", "--catalogue", "album", "--json"], in: folder)
        let photos = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(photos.map { ($0["path"] as? String) ?? "" }, ["\(folder)/photos/open/a.jpg"], "the readable folder's photo is in")
    }

    func testFollowedLinksAreImportedAndLoopsAndDanglingLinksExplained() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try Fixture.jpeg(at: "\(folder)/elsewhere/real.jpg", variant: 1)
        try FileManager.default.createDirectory(atPath: "\(folder)/photos", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: "\(folder)/photos/link.jpg", withDestinationPath: "\(folder)/elsewhere/real.jpg")
        try FileManager.default.createSymbolicLink(atPath: "\(folder)/photos/dangling.jpg", withDestinationPath: "\(folder)/nowhere.jpg")
        try FileManager.default.createSymbolicLink(atPath: "\(folder)/photos/self", withDestinationPath: "\(folder)/photos")
        try TestSupport.write("version: 1\nstages:\n  - import: {from: photos, follow-symlinks: true}\n", to: "job.yml", in: folder)
        let result = try TestSupport.album(["run", "job.yml"], in: folder)
        XCTAssertEqual(result.status, 1)
        XCTAssert(result.stderr.contains("dangling.jpg: a dangling symbolic link"), result.stderr)
        let listed = try TestSupport.album(["ls", "--catalogue", "album", "--json"], in: folder)
        let photos = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(photos.count, 1, "the linked photo once, though the folder links to itself")
    }
}
