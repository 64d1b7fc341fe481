import XCTest
import SQLite
@testable import Core
@testable import Catalogue

final class CatalogueTests: XCTestCase {
    func photo(_ id: String, hash: String, path: String, taken: String? = nil) -> PhotoRecord {
        PhotoRecord(id: id, hash: hash, path: path, bytes: 10, mtimeNanoseconds: 1, inode: 2, width: 3, height: 4,
                    format: "jpeg", taken: taken, added: Timestamp.now(), caption: nil, filter: "none",
                    filterRecipe: "[]", camera: nil, orientation: 1, hasGPS: false, replaces: nil, storedPath: nil)
    }

    func testANewCatalogueIsAFolderWithAWALDatabaseAtTheCurrentSchema() throws {
        let folder = try TestSupport.temporaryFolder(self) + "/album"
        let catalogue = try Catalogue(folder: folder, create: true)
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder + "/catalogue.db"))
        XCTAssertEqual(try catalogue.database.query("PRAGMA journal_mode") { $0.text(0) }, ["wal"])
        XCTAssertEqual(try catalogue.database.query("PRAGMA foreign_keys") { $0.int(0) }, [1])
        XCTAssertEqual(try catalogue.database.query("PRAGMA user_version") { $0.int(0) }, [Schema.currentVersion])
        catalogue.close()
    }

    func testPhotosRoundTripAndHashesAreUnique() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let catalogue = try Catalogue(folder: folder, create: true)
        defer { catalogue.close() }
        let a = photo("id-a", hash: "h1", path: "/p/a.jpg", taken: "2008-04-20T19:12:06")
        try catalogue.insert(a)
        XCTAssertEqual(try catalogue.photo(hash: "h1"), a)
        XCTAssertEqual(try catalogue.latestPhoto(path: "/p/a.jpg")?.id, "id-a")
        XCTAssertEqual(try catalogue.photos(idPrefix: "id-").map(\.id), ["id-a"])
        XCTAssertThrowsError(try catalogue.insert(photo("id-b", hash: "h1", path: "/p/b.jpg"))) { error in
            XCTAssertEqual((error as? SQLiteError)?.primaryCode, 19, "a UNIQUE constraint violation")
        }
        try catalogue.setFilter(photo: "id-a", name: "sepia", recipe: #"[{"sepia":{"amount":0.85}}]"#)
        XCTAssertEqual(try catalogue.photo(hash: "h1")?.filter, "sepia")
    }

    func testACatalogueFromANewerAlbumIsRefused() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try Catalogue(folder: folder, create: true).close()
        let database = try Database(path: folder + "/catalogue.db")
        try database.execute("PRAGMA user_version = 99")
        database.close()
        XCTAssertThrowsError(try Catalogue(folder: folder, create: true)) { error in
            XCTAssert("\(error)".contains("newer album"), "\(error)")
        }
    }

    func testAVersion1CatalogueIsMigratedToVersion2KeepingItsSteps() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let old = try Database(path: folder + "/" + Catalogue.databaseName)
        try old.execute(Schema.migrations[0] + "\nPRAGMA user_version = 1;")
        try old.execute("""
            INSERT INTO runs (id, job, started, album_version, vips_version, sqlite_version, host)
                VALUES (7, 'old', '2024-01-01T00:00:00.000Z', '0.0.1', '8.14', '3.40', 'h');
            INSERT INTO steps (run, photo, path, stage, params, ms, status) VALUES (7, NULL, '/p/a.jpg', 'import', '{}', 1.5, 'done');
            """)
        XCTAssertThrowsError(try old.execute("INSERT INTO steps (run, path, stage, params, ms, status) VALUES (7, '/p', 'caption', '{}', 0, 'done')"),
                             "version 1 has no caption stage")
        old.close()

        let catalogue = try Catalogue(folder: folder, create: false)
        defer { catalogue.close() }
        XCTAssertEqual(try catalogue.database.query("PRAGMA user_version") { $0.int(0) }, [Schema.currentVersion])
        XCTAssertEqual(try catalogue.database.query("SELECT run, path, stage, ms, at FROM steps") { row in
            "\(try row["run"] as Int) \(try row["path"] as String) \(try row["stage"] as String) \(try row["ms"] as Double) \(try row["at"] as String? ?? "NULL")"
        }, ["7 /p/a.jpg import 1.5 NULL"], "old rows are copied; they have no time")
        let identity = try catalogue.identity()
        XCTAssertNotNil(identity.range(of: "^[0-9a-f]{32}$", options: .regularExpression), "a migrated catalogue gets an id: \(identity)")
        try catalogue.database.execute("INSERT INTO steps (run, path, stage, params, ms, status) VALUES (7, '/p', 'caption', '{}', 0, 'done')")
        let at = try XCTUnwrap(catalogue.database.query("SELECT at FROM steps WHERE stage = 'caption'") { $0.text(0) }.first ?? nil)
        XCTAssertNotNil(at.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$"#, options: .regularExpression), at)
        XCTAssertEqual(try catalogue.database.query("PRAGMA integrity_check") { $0.text(0) }, ["ok"])
        XCTAssertEqual(try catalogue.database.query("SELECT name FROM sqlite_master WHERE tbl_name = 'steps' AND type = 'index' ORDER BY name") { $0.text(0) },
                       ["steps_photo", "steps_run"])
    }

    /// Rewrites the catalogue database `file` as version 6 left it (before issue 31 took the stage and rendition
    /// kind CHECKs out): a database made by the first six migrations, every row copied into it with its id.
    /// The SQL that drops every column and index declared after the fixed history (`since` 8 on: issue 32's XMP
    /// facts, issue 34's indexes) from the tables of `schema` (`main`, or an attached database), and every table
    /// declared after it: what an older album's tables held.
    static func droppingDeclaredColumns(in schema: String = "main") -> String {
        let indexes = Schema.records.flatMap { $0.addedIndexes }.map { "DROP INDEX IF EXISTS \(schema).\($0.name);" }
        return (indexes + Schema.records.flatMap { record in
            // A table declared after the fixed history goes whole (its index with it); a later column alone.
            record.since > Schema.migrations.count ? ["DROP TABLE IF EXISTS \(schema).\(record.table);"]
                : record.declaredColumns.filter { $0.since > Schema.migrations.count }
                    .map { "ALTER TABLE \(schema).\(record.table) DROP COLUMN \($0.name);" }
        }).joined(separator: " ")
    }

    static func makeVersion6(_ file: String) throws {
        let old = file + ".v6"
        let database = try Database(path: old)
        try database.execute("PRAGMA journal_mode = WAL")
        try database.execute(Schema.migrations[..<6].joined(separator: "\n"))
        try database.run("ATTACH DATABASE ? AS current", [.text(file)])
        try database.execute(droppingDeclaredColumns(in: "current"))
        let tables = ["runs", "photos", "renditions", "steps", "aliases", "distributed", "distributed_chunks"]
        // Version 6's columns only: a column declared later (photos.lens, schema 8) is left behind, as it was not there.
        func columns(_ table: String) throws -> String {
            try database.query("PRAGMA main.table_info(\(table))") { $0.text(1) }.compactMap { $0 }.joined(separator: ", ")
        }
        try database.execute("BEGIN; DELETE FROM identity; INSERT INTO identity SELECT * FROM current.identity;"
                             + tables.map { "INSERT INTO main.\($0) (\(try columns($0))) SELECT \(try columns($0)) FROM current.\($0);" }.joined()
                             + "PRAGMA user_version = 6; COMMIT; DETACH DATABASE current")
        database.close()
        try FileManager.default.removeItem(atPath: file)
        try FileManager.default.moveItem(atPath: old, toPath: file)
    }

    func testAVersion6CatalogueLosesItsStageAndKindChecksAndKeepsEveryRow() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let file = folder + "/" + Catalogue.databaseName
        let old = try Database(path: file)
        try old.execute(Schema.migrations[..<6].joined(separator: "\n") + "\nPRAGMA user_version = 6;")
        try old.execute("""
            INSERT INTO runs (id, job, started, album_version, vips_version, sqlite_version, host)
                VALUES (7, 'old', '2024-01-01T00:00:00.000Z', '0.0.1', '8.14', '3.40', 'h');
            INSERT INTO photos (id, hash, path, bytes, mtime_ns, inode, width, height, format, added)
                VALUES ('p1', 'h1', '../a.jpg', 10, 1, 2, 3, 4, 'jpeg', '2024-01-01T00:00:00.000Z');
            INSERT INTO renditions (id, photo, kind, params_hash, input_hash, path, file_hash, width, height, bytes, run)
                VALUES (41, 'p1', 'thumbnail', 'ph', 'ih', 'thumbnails/p1/t.jpg', 'fh', 3, 4, 99, 7);
            INSERT INTO steps (id, run, photo, path, stage, params, input_hash, output_hash, ms, status, error, at)
                VALUES (5, 7, 'p1', '/p/a.jpg', 'caption', '{}', 'i', 'o', 1.5, 'done', NULL, '2024-01-01T00:00:01.000Z');
            """)
        XCTAssertThrowsError(try old.execute("INSERT INTO steps (run, path, stage, params, ms, status) VALUES (7, '/p', 'video', '{}', 0, 'done')"),
                             "version 6 checks the stage in SQL")
        let rows = "SELECT * FROM renditions ORDER BY id; SELECT * FROM steps ORDER BY id"
        let before = try Tool.sqlite(file, rows)
        old.close()

        let catalogue = try Catalogue(folder: folder, create: false)
        defer { catalogue.close() }
        XCTAssertEqual(try catalogue.database.query("PRAGMA user_version") { $0.int(0) }, [Schema.currentVersion])
        XCTAssertEqual(try Tool.sqlite(file, rows), before, "rows copied with their ids and values")
        XCTAssertEqual(try catalogue.renditions(photo: "p1").map(\.path), [folder + "/thumbnails/p1/t.jpg"])
        XCTAssertEqual(try catalogue.steps(run: 7).map(\.stage), [.caption])
        // The stage and the kind are text now: a new one needs no rebuild (album's types check what they read).
        try catalogue.database.execute("""
            INSERT INTO steps (run, path, stage, params, ms, status) VALUES (7, '/p', 'video', '{}', 0, 'done');
            INSERT INTO renditions (photo, kind, params_hash, input_hash, path, file_hash, width, height, bytes)
                VALUES ('p1', 'poster', 'ph', 'ih', 'posters/p1.jpg', 'fh', 3, 4, 1);
            """)
        XCTAssertThrowsError(try catalogue.database.execute("INSERT INTO steps (run, path, stage, params, ms, status) VALUES (7, '/p', 'import', '{}', 0, 'maybe')"),
                             "a step's status stays album's own closed set, checked in SQL")
        XCTAssertEqual(try catalogue.database.query("PRAGMA integrity_check") { $0.text(0) }, ["ok"])
        XCTAssertEqual(try catalogue.database.query("PRAGMA foreign_key_check") { $0.text(0) }, [])
        XCTAssertEqual(try catalogue.database.query("SELECT name FROM sqlite_master WHERE tbl_name IN ('steps', 'renditions') AND type = 'index' AND sql IS NOT NULL ORDER BY name") { $0.text(0) },
                       ["renditions_lookup", "renditions_path", "renditions_run", "steps_photo", "steps_run"],
                       "version 7's indexes, and version 9's on renditions")
    }

    func testADamagedDatabaseIsReportedNotRepaired() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let garbage = Data(repeating: 0x5A, count: 8192)
        try garbage.write(to: URL(fileURLWithPath: folder + "/catalogue.db"))
        XCTAssertThrowsError(try Catalogue(folder: folder, create: true)) { error in
            XCTAssert("\(error)".contains("damaged or not an album catalogue"), "\(error)")
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: folder + "/catalogue.db")), garbage, "left untouched")
    }

    func testStepsAndRunsAreRecordedAndCounted() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let catalogue = try Catalogue(folder: folder, create: true)
        defer { catalogue.close() }
        let software = Software(album: "t", vips: "8", sqlite: "3", host: "h")
        let run = try catalogue.beginRun(job: "j", jobPath: nil, jobHash: nil, started: Timestamp.now(), software: software)
        try catalogue.insert(photo("id-a", hash: "h1", path: "/p/a.jpg"))
        for status in [StepRecord.Status.done, .done, .failed] {
            try catalogue.record(StepRecord(run: run, photo: "id-a", path: "/p/a.jpg", stage: .thumbnail, parameters: "{}",
                                            inputHash: "h1", outputHash: nil, milliseconds: 1, status: status, error: nil))
        }
        XCTAssertEqual(try catalogue.stepCounts(run: run)[.thumbnail], [.done: 2, .failed: 1])
        try catalogue.finishRun(run, finished: Timestamp.now(), status: "failed", counts: "{}")
        XCTAssertEqual(try catalogue.runs().first?.status, "failed")
    }
}
