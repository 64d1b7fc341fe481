import Foundation
import XCTest
import SQLite
@testable import Core
@testable import Catalogue

/// A damaged catalogue is never written: writers refuse it before their first write, and damage met during a
/// run stops the run. Damage is made to real catalogues of real runs, and checked with the `sqlite3` tool.
final class CatalogueIntegrityTests: XCTestCase {
    /// A folder with `count` photos, a thumbnail job, and the catalogue of one successful run of it.
    func catalogueOfARun(photos count: Int) throws -> (folder: String, database: String) {
        let folder = try TestSupport.temporaryFolder(self)
        for i in 0..<count { try Fixture.jpeg(at: "\(folder)/photos/p\(i).jpg", width: 96, height: 64, variant: i) }
        try TestSupport.write("""
            version: 1
            stages:
              - import: {from: photos}
              - thumbnail: {size: 32x32}
            """, to: "job.yml", in: folder)
        let first = try TestSupport.album(["run", "job.yml", "--workers", "1"], in: folder)
        XCTAssertEqual(first.status, 0, first.stderr)
        return (folder, folder + "/album/catalogue.db")
    }

    func testACatalogueWithBytesOverwrittenInItsMiddleIsRefusedByWritersAndLeftByteForByte() throws {
        let (folder, database) = try catalogueOfARun(photos: 30)
        // A leaf page of the steps table from the middle of the file: the 512 bytes start after its 8-byte b-tree
        // header, over its cell pointers and what follows. (They used to end 64 bytes before the page's end, inside
        // rows: since import's parameters list the RAW extensions, its steps' rows are long enough that those bytes
        // fell inside one row's JSON text, which no check can tell from other text.)
        let pageSize = try XCTUnwrap(Int(try Tool.sqlite(database, "PRAGMA page_size")))
        let leaves = try Tool.sqlite(database, "SELECT pageno FROM dbstat WHERE name = 'steps' AND pagetype = 'leaf' ORDER BY pageno")
            .split(separator: "\n").compactMap { Int($0) }
        XCTAssertGreaterThanOrEqual(leaves.count, 3, "the steps table spans several pages")
        let page = leaves[leaves.count / 2]
        let offset = (page - 1) * pageSize + 8
        var random = SplitMix64(state: 13)
        let bytes = (0..<512).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: database))
        try handle.seek(toOffset: UInt64(offset))
        handle.write(Data(bytes))
        try handle.close()
        XCTAssertNotEqual(try Tool.sqlite(database, "PRAGMA integrity_check"), "ok", "the damage is real")
        XCTAssertNotEqual(try Tool.sqlite(database, "PRAGMA quick_check"), "ok", "and the pre-write check's kind")
        let before = try Tool.sha256(database)

        try Fixture.jpeg(at: "\(folder)/photos/new.jpg", width: 96, height: 64, variant: 99)  // something to write
        let run = try TestSupport.album(["run", "job.yml"], in: folder)
        XCTAssertEqual(run.status, 3, run.stderr)
        XCTAssert(run.stderr.contains("catalogue database \(database) is damaged or not an album catalogue (quick_check: "), run.stderr)
        XCTAssert(run.stderr.contains("album will not write to it"), run.stderr)
        XCTAssertEqual(try Tool.sha256(database), before, "run left the file byte for byte as it was")

        for command in [["import", "photos"], ["caption", "0", "text"], ["gc"]] {
            let result = try TestSupport.album(command + ["--catalogue", "album"], in: folder)
            XCTAssertEqual(result.status, 3, "\(command[0]): \(result.stderr)")
            XCTAssert(result.stderr.contains("is damaged"), "\(command[0]): \(result.stderr)")
        }
        let verify = try TestSupport.album(["verify", "--catalogue", "album"], in: folder)
        XCTAssertEqual(verify.status, 1, verify.stderr)
        XCTAssert(verify.stdout.contains("\(database): integrity check: "), verify.stdout)
        XCTAssertEqual(try Tool.sha256(database), before, "neither the other writers nor verify wrote to it")
    }

    func testDamageMetDuringARunStopsItWithStatus3() throws {
        let (folder, database) = try catalogueOfARun(photos: 6)
        // Damage that quick_check does not look for, and a write does: the index on photos.path loses its entries
        // (rebuilt as a partial index of no rows, then declared whole again), which integrity_check alone sees.
        _ = try Tool.sqlite(database, """
            DROP INDEX photos_path;
            CREATE INDEX photos_path ON photos(path) WHERE 0;
            PRAGMA writable_schema = ON;
            UPDATE sqlite_schema SET sql = 'CREATE INDEX photos_path ON photos(path)' WHERE name = 'photos_path';
            PRAGMA writable_schema = OFF;
            """, writing: true)
        XCTAssertEqual(try Tool.sqlite(database, "PRAGMA quick_check"), "ok", "the pre-write check passes")
        XCTAssert(try Tool.sqlite(database, "PRAGMA integrity_check").contains("missing from index photos_path"))
        // A touched photo is the same file again: its import updates the row's stat, and so its photos.path entry.
        let touched = "\(folder)/photos/p3.jpg"
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: touched)

        let run = try TestSupport.album(["run", "job.yml", "--workers", "1", "--log-format", "json"], in: folder)
        XCTAssertEqual(run.status, 3, run.stderr)
        XCTAssert(run.stderr.contains("catalogue database \(database) was found damaged during the run"), run.stderr)
        XCTAssert(run.stderr.contains("the run stopped"), run.stderr)
        let runs = try Tool.sqlite(database, "SELECT id, status FROM runs ORDER BY id")
        XCTAssertEqual(runs, "1|ok\n2|running", "the damaged run's row is not written on after the damage")
    }

    func testTheCheckIsSkippedOnlyWhileTheFileIsAsTheLastWriterLeftIt() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let file = folder + "/" + Catalogue.databaseName
        func writerCheckedInFull() throws -> Bool {
            let catalogue = try Catalogue(folder: folder, create: true, writing: true)
            defer { catalogue.close() }
            return catalogue.checkedInFull
        }
        XCTAssertTrue(try writerCheckedInFull(), "a new catalogue")
        XCTAssert(FileManager.default.fileExists(atPath: folder + "/" + CatalogueStamp.fileName), "its close stamps the file")
        XCTAssertFalse(try writerCheckedInFull(), "unchanged since the last writer: skipped")
        try CatalogueReader(folder: folder).close()
        XCTAssertFalse(try writerCheckedInFull(), "a reader changes nothing")

        // Any write to the file changes its ctime, even one that writes the same byte and sets the mtime back.
        let before = try FileManager.default.attributesOfItem(atPath: file)[.modificationDate] as? Date
        let handle = try XCTUnwrap(FileHandle(forUpdatingAtPath: file))
        let first = try XCTUnwrap(try handle.read(upToCount: 1))
        try handle.seek(toOffset: 0)
        handle.write(first)
        try handle.close()
        try FileManager.default.setAttributes([.modificationDate: try XCTUnwrap(before)], ofItemAtPath: file)
        XCTAssertTrue(try writerCheckedInFull(), "touched from outside: checked in full")
        XCTAssertFalse(try writerCheckedInFull())

        // A writer that closes while another connection is open leaves its commits in the -wal: no stamp.
        let other = try Database(path: file, mode: .readWrite)
        _ = try other.query("SELECT count(*) FROM runs") { $0.int(0) }
        let catalogue = try Catalogue(folder: folder, create: false, writing: true)
        _ = try catalogue.beginRun(job: "j", jobPath: nil, jobHash: nil, started: Timestamp.now(), software: Software(album: "t", vips: "8", sqlite: "3", host: "h"))
        catalogue.close()
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/" + CatalogueStamp.fileName))
        other.close()
        XCTAssertTrue(try writerCheckedInFull())
    }
}
