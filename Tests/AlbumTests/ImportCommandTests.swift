import Foundation
import XCTest
import Vips
@testable import Catalogue
@testable import Commands

/// `album import PATH...`: the import stage without a job file, run like a job.
final class ImportCommandTests: XCTestCase {
    func testImportsFilesAndFoldersIntoTheCatalogueLikeAJob() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try Fixture.jpeg(at: "\(folder)/photos/storm.jpg", taken: "2008:04:20 19:12:06")
        try Fixture.jpeg(at: "\(folder)/photos/nested/aqua.jpg", width: 400, height: 300)
        try Fixture.jpeg(at: "\(folder)/loose/one photo.jpg", orientation: 6)

        let result = try TestSupport.album(["import", "photos", "loose/one photo.jpg", "--catalogue", "cat"], in: folder)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssert(result.stderr.contains("of job 'import' ok"), result.stderr)
        let list = try TestSupport.album(["ls", "--catalogue", "cat", "--json"], in: folder)
        let photos = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(Set(photos.map { ($0["path"] as! String as NSString).lastPathComponent }), ["storm.jpg", "aqua.jpg", "one photo.jpg"])

        // The same import again: everything skipped, exit 0; the run is recorded without a job file.
        let again = try TestSupport.album(["import", "photos", "loose/one photo.jpg", "--catalogue", "cat"], in: folder)
        XCTAssertEqual(again.status, 0, again.stderr)
        let catalogue = try Catalogue(folder: folder + "/cat", create: false)
        defer { catalogue.close() }
        let runs = try catalogue.runs()
        XCTAssertEqual(runs.count, 2)
        XCTAssertEqual(runs[0].job, "import")
        XCTAssertNil(runs[0].jobPath)
        XCTAssertEqual(try catalogue.stepCounts(run: runs[0].id)[.import], [.skipped: 3])
    }

    func testADashReadsPathsFromStandardInputAndBadFilesFailAlone() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try Fixture.jpeg(at: "\(folder)/a b.jpg")
        try Fixture.jpeg(at: "\(folder)/c.jpg", width: 200, height: 100)
        try Fixture.jpeg(at: "\(folder)/d.jpg", width: 100, height: 200)
        try TestSupport.write("just text", to: "notes.jpg", in: folder)
        let list = "\(folder)/a b.jpg\r\nc.jpg\n\n\(folder)/missing.jpg\nnotes.jpg\n"

        let result = try TestSupport.album(["import", "d.jpg", "-", "--catalogue", "cat"], in: folder, stdin: list)
        XCTAssertEqual(result.status, 1, "some files failed: \(result.stderr)")
        XCTAssert(result.stderr.contains("album: import failed: \(folder)/missing.jpg: cannot read it: No such file or directory"), result.stderr)
        XCTAssert(result.stderr.contains("album: import failed: \(folder)/notes.jpg: not an image: it looks like text"), result.stderr)
        let photos = try TestSupport.album(["ls", "--catalogue", "cat", "--json"], in: folder)
        let names = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(photos.stdout.utf8)) as? [[String: Any]])
            .map { ($0["path"] as! String as NSString).lastPathComponent }
        XCTAssertEqual(Set(names), ["a b.jpg", "c.jpg", "d.jpg"])
        XCTAssertEqual(ImportCommand.lines(Data(" x \r\n\ny\n".utf8)), [" x ", "y"], "only line ends are trimmed")
    }

    func testUsageAndCatalogueErrors() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let none = try TestSupport.album(["import"], in: folder)
        XCTAssertEqual(none.status, 2)
        XCTAssert(none.stderr.contains("import needs at least one photo or folder"), none.stderr)
        XCTAssertEqual(try TestSupport.album(["import", "x.jpg", "--workers", "0"], in: folder).status, 2)
        XCTAssertEqual(try TestSupport.album(["import", "x.jpg", "--frobnicate"], in: folder).status, 2)
        try TestSupport.write("not a folder", to: "file", in: folder)
        try Fixture.jpeg(at: "\(folder)/a.jpg")
        let blocked = try TestSupport.album(["import", "a.jpg", "--catalogue", "file"], in: folder)
        XCTAssertEqual(blocked.status, 3, blocked.stderr)
    }
}
