import XCTest
@testable import Core
@testable import Catalogue

/// One writer per catalogue: a second one stops at once with who holds it; readers go on; dead holders never block.
final class CatalogueLockTests: XCTestCase {
    func testASecondWriterStopsAtOnceNamingTheHolderAndReadersGoOn() throws {
        let folder = try TestSupport.temporaryFolder(self) + "/album"
        let writer = try Catalogue(folder: folder, create: true, writing: true)
        XCTAssertThrowsError(try Catalogue(folder: folder, create: true, writing: true)) { error in
            let message = "\(error)"
            XCTAssert(error is CatalogueError)
            XCTAssertNotNil(message.range(of: #"^catalogue \#(folder) is in use by album pid \#(getpid()) since \d{4}-\d\d-\d\d \d\d:\d\d:\d\d [+-]\d\d:\d\d"#,
                                          options: .regularExpression), message)
        }
        let reader = try Catalogue(folder: folder, create: false)
        XCTAssertEqual(try reader.allPhotos(), [])
        reader.close()
        writer.close()
        let next = try Catalogue(folder: folder, create: false, writing: true)
        next.close()
    }

    func testALockFileLeftByADeadProcessDoesNotBlock() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try Catalogue(folder: folder, create: true).close()
        // What a killed album leaves: the file with its pid, but no flock (the kernel dropped it with the process).
        try TestSupport.write("999999 2020-01-01T00:00:00.000Z\n", to: CatalogueLock.fileName, in: folder)
        let catalogue = try Catalogue(folder: folder, create: false, writing: true)
        let text = try String(contentsOfFile: folder + "/" + CatalogueLock.fileName, encoding: .utf8)
        XCTAssert(text.hasPrefix("\(getpid()) "), "the new holder wrote itself: \(text)")
        catalogue.close()
    }

    func testOpeningForWritingMarksRunsLeftRunningAsInterrupted() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let first = try Catalogue(folder: folder, create: true, writing: true)
        let software = Software(album: "t", vips: "8", sqlite: "3", host: "h")
        _ = try first.beginRun(job: "killed", jobPath: "/j.yml", jobHash: nil, started: Timestamp.now(), software: software)
        first.close()  // as if the process had died: the run row still says running
        let reader = try Catalogue(folder: folder, create: false)
        XCTAssertEqual(try reader.runs().map(\.status), ["running"], "a reader changes nothing")
        reader.close()
        let writer = try Catalogue(folder: folder, create: false, writing: true)
        defer { writer.close() }
        XCTAssertEqual(try writer.runs().map(\.status), ["interrupted"])
    }

    func testASecondAlbumRunExitsThreeWhileLsStillWorks() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try Fixture.jpeg(at: folder + "/photos/a.jpg")
        try TestSupport.write("version: 1\nname: locked\nstages:\n  - import: {from: photos}\n", to: "job.yml", in: folder)
        let first = try TestSupport.album(["run", "job.yml"], in: folder)
        XCTAssertEqual(first.status, 0, first.stderr)

        let holder = try Catalogue(folder: folder + "/album", create: false, writing: true)
        let second = try TestSupport.album(["run", "job.yml"], in: folder)
        XCTAssertEqual(second.status, 3, second.stderr)
        XCTAssert(second.stderr.contains("catalogue \(folder)/album is in use by album pid \(getpid()) since "), second.stderr)
        let list = try TestSupport.album(["ls", "--catalogue", "album"], in: folder)
        XCTAssertEqual(list.status, 0, list.stderr)
        XCTAssert(list.stdout.contains("\(folder)/photos/a.jpg"), list.stdout)
        holder.close()

        let third = try TestSupport.album(["run", "job.yml"], in: folder)
        XCTAssertEqual(third.status, 0, third.stderr)
    }
}
