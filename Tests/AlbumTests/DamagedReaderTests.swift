import Foundation
import XCTest

/// Issue 29, item 12: readers (`show`, `ls`, `runs`, `report`) never answer from a damaged catalogue. A file not as
/// album's last clean close left it gets `PRAGMA quick_check` first, and a row that cannot be decoded is an error
/// naming its table and column, exit 3, never a history cut short or garbage shown as parameters. The damage is
/// bytes written into the database file, found with the `sqlite3` tool's `dbstat`.
final class DamagedReaderTests: XCTestCase {
    /// One photo with a history of 13 steps (a run's import and thumbnail, then 11 captions); its id.
    private func catalogueWithAHistory() throws -> (folder: String, database: String, photo: String) {
        let folder = try TestSupport.temporaryFolder(self)
        try Fixture.jpeg(at: "\(folder)/photos/a.jpg", width: 96, height: 64)
        try TestSupport.write("""
            version: 1
            stages:
              - import: {from: photos}
              - thumbnail: {size: 32x32}
            """, to: "job.yml", in: folder)
        let run = try TestSupport.album(["run", "job.yml", "--workers", "1"], in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        let database = folder + "/album/catalogue.db"
        let photo = try Tool.sqlite(database, "SELECT id FROM photos")
        for index in 0...10 {
            let caption = try TestSupport.album(["caption", photo, "caption number \(index)", "--catalogue", "album"], in: folder)
            XCTAssertEqual(caption.status, 0, caption.stderr)
        }
        XCTAssertEqual(try history(of: photo, in: folder).count, 13, "the whole history, before any damage")
        return (folder, database, photo)
    }

    private func history(of photo: String, in folder: String) throws -> [Any] {
        let show = try TestSupport.album(["show", photo, "--json", "--catalogue", "album"], in: folder)
        XCTAssertEqual(show.status, 0, show.stderr)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(show.stdout.utf8)) as? [String: Any])
        return try XCTUnwrap(object["history"] as? [Any])
    }

    private func write(_ bytes: [UInt8], at offset: Int, into file: String) throws {
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: file))
        try handle.seek(toOffset: UInt64(offset))
        handle.write(Data(bytes))
        try handle.close()
    }

    func testAnIndexPageThatLostRowsIsRefusedNotReadAsAShorterHistory() throws {
        let (folder, database, photo) = try catalogueWithAHistory()
        // The page of the index `show` reads steps through, its cell count (bytes 3-4 of a leaf page's header) made
        // 4: SQLite itself would read the 4 entries left and say nothing of the rest.
        let pageSize = try XCTUnwrap(Int(try Tool.sqlite(database, "PRAGMA page_size")))
        let page = try XCTUnwrap(Int(try Tool.sqlite(database, "SELECT pageno FROM dbstat WHERE name = 'steps_photo' AND pagetype = 'leaf'")))
        try write([0, 4], at: (page - 1) * pageSize + 3, into: database)
        XCTAssertEqual(try Tool.sqlite(database, "SELECT count(*) FROM steps INDEXED BY steps_photo WHERE photo = '\(photo)'"), "4",
                       "the damage is silent to a query")
        for command in [["show", photo], ["show", photo, "--json"], ["ls"], ["ls", "--json"], ["runs"],
                        ["report", "--out", folder + "/report.html"]] {
            let result = try TestSupport.album(command + ["--catalogue", "album"], in: folder)
            XCTAssertEqual(result.status, 3, "\(command): \(result.stdout)\(result.stderr)")
            XCTAssertEqual(result.stdout, "", "\(command): nothing printed as an answer")
            XCTAssert(result.stderr.contains("catalogue database \(database) is damaged or not an album catalogue (quick_check: "),
                      "\(command): \(result.stderr)")
            XCTAssert(result.stderr.contains("album will not read it") && result.stderr.contains("album verify"), result.stderr)
        }
        let verify = try TestSupport.album(["verify", "--catalogue", "album"], in: folder)
        XCTAssertEqual(verify.status, 1, "verify still opens it, to say what is wrong: \(verify.stderr)")
        XCTAssert(verify.stdout.contains("steps_photo"), verify.stdout)
    }

    func testGarbageInsideAStepsParametersIsAnErrorNamingTheTableNotParameters() throws {
        let (folder, database, photo) = try catalogueWithAHistory()
        // Bytes inside one value: the b-trees are intact (quick_check says ok), the text is not what album wrote.
        let bytes = try XCTUnwrap(FileManager.default.contents(atPath: database))
        let needle = Data(#"{"caption":"caption number 5"}"#.utf8)
        let found = try XCTUnwrap(bytes.range(of: needle), "the step's parameters are in the file")
        XCTAssertNil(bytes[found.upperBound...].range(of: needle), "once")
        try write(Array("\u{1}\u{7}garbage".utf8), at: found.lowerBound + 12, into: database)
        XCTAssertEqual(try Tool.sqlite(database, "PRAGMA quick_check"), "ok", "damage no structural check sees")
        for command in [["show", photo], ["show", photo, "--json"]] {
            let result = try TestSupport.album(command + ["--catalogue", "album"], in: folder)
            XCTAssertEqual(result.status, 3, "\(command): \(result.stdout)\(result.stderr)")
            XCTAssert(result.stderr.contains("the catalogue database has a row album cannot read (table steps: column params holds text that is not a JSON object"),
                      "\(command): \(result.stderr)")
            XCTAssert(result.stderr.contains("album verify"), result.stderr)
            XCTAssertFalse(result.stdout.contains("garbage"), "no garbage shown as parameters: \(result.stdout)")
        }
        let ls = try TestSupport.album(["ls", "--catalogue", "album"], in: folder)
        XCTAssertEqual(ls.status, 0, "ls reads no steps: \(ls.stderr)")
    }

    /// A reader skips the check only while the file is as the last clean close stamped it: an undamaged catalogue
    /// written by another program (the sqlite3 tool here) is checked and read.
    func testAFileChangedSinceTheLastCleanCloseIsCheckedAndReadWhenSound() throws {
        let (folder, database, photo) = try catalogueWithAHistory()
        _ = try Tool.sqlite(database, "UPDATE photos SET caption = 'set by sqlite3'", writing: true)
        let show = try TestSupport.album(["show", photo, "--json", "--catalogue", "album"], in: folder)
        XCTAssertEqual(show.status, 0, show.stderr)
        XCTAssert(show.stdout.contains("set by sqlite3"), show.stdout)
        XCTAssertEqual(try history(of: photo, in: folder).count, 13)
    }
}
