import XCTest
@testable import Catalogue
import SQLite

/// Issue 34: every lookup a command makes of one photo, one file or one run is served by an index, so its cost does
/// not grow with the library. The lookups run on a catalogue a real run made; then SQLite's own plan of each
/// statement they prepared (`EXPLAIN QUERY PLAN`, sqlite.org/eqp.html) must not `SCAN` a table, and every foreign
/// key must have an index that starts with its column (else deleting the row it names, `album prune`, reads the
/// whole child table: sqlite.org/foreignkeys.html, "Required and Suggested Database Indexes").
final class QueryPlanTests: XCTestCase {
    /// A catalogue of three photos, a run over them, and its folder.
    func makeCatalogue() throws -> String {
        let folder = try TestSupport.temporaryFolder(self)
        for index in 0..<3 {
            try Fixture.jpeg(at: "\(folder)/photos/p\(index).jpg", width: 64, height: 48, variant: index)
        }
        try TestSupport.write("""
            version: 1
            name: plans
            catalogue: album
            stages:
              - import: {from: photos}
              - thumbnail: {size: 32x32}
              - export: {from: thumbnail, to: "out/{name}.jpg"}
            """, to: "job.yml", in: folder)
        let run = try TestSupport.album(["run", "job.yml"], in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        return folder + "/album"
    }

    /// The lines of SQLite's plan for `sql`, its parameters bound to NULL (the plan does not depend on them).
    func plan(_ sql: String, in database: Database) throws -> [String] {
        let arguments = [Value](repeating: .null, count: sql.filter { $0 == "?" }.count)
        return try database.query("EXPLAIN QUERY PLAN " + sql, arguments) { $0.text(3) ?? "" }
    }

    func testEveryLookupOfOnePhotoFileOrRunIsServedByAnIndex() throws {
        let catalogue = try CatalogueReader(folder: try makeCatalogue())
        defer { catalogue.close() }
        let photo = try XCTUnwrap(catalogue.allPhotos().first)
        let run = try XCTUnwrap(catalogue.runs().first)
        let rendition = try XCTUnwrap(catalogue.renditions(photo: photo.id).first)
        let wholeTables = Set(catalogue.database.keptStatements)  // the reads above that want every row

        // `show`, `rm`, `caption` and `open` by id or prefix; import's fast path; export's ownership check; `runs`.
        XCTAssertEqual(try catalogue.photos(idPrefix: String(photo.id.prefix(4)).uppercased(), limit: 4).map(\.id), [photo.id])
        XCTAssertEqual(try catalogue.countPhotos(idPrefix: String(photo.id.prefix(6))), 1)
        XCTAssertEqual(try catalogue.countPhotos(idPrefix: "zz"), 0)
        XCTAssertEqual(try catalogue.photo(id: photo.id)?.hash, photo.hash)
        XCTAssertEqual(try catalogue.photo(hash: photo.hash)?.id, photo.id)
        XCTAssertEqual(try catalogue.latestPhoto(path: photo.path)?.id, photo.id)
        XCTAssertFalse(try catalogue.isSuperseded(photo))
        XCTAssertEqual(try catalogue.aliases(photo: photo.id).count, 0)
        XCTAssertEqual(try catalogue.aliases(path: photo.path).count, 0)
        XCTAssertEqual(try catalogue.secondOriginals(photo: photo.id).count, 0)
        XCTAssertEqual(try catalogue.secondOriginals(path: photo.path).count, 0)
        XCTAssertEqual(try catalogue.renditions(path: rendition.path).map(\.photo), [photo.id])
        XCTAssertTrue(try catalogue.isRecorded(path: rendition.path))
        XCTAssertEqual(try catalogue.photos(recording: rendition.path), [photo.id])
        XCTAssertFalse(try catalogue.history(photo: photo.id).isEmpty)
        XCTAssertFalse(try catalogue.steps(run: run.id).isEmpty)
        XCTAssertFalse(try catalogue.stepCounts(run: run.id).isEmpty)
        // A run's and a plan's lookups (`CatalogueSnapshot`): a path's photos, a photo's aliases and renditions (above),
        // a chunk's share by id (`json_each` over its ids is the argument list, no table), each photo's currency's facts.
        XCTAssertEqual(try catalogue.photos(atPath: photo.path).map(\.id), [photo.id])
        XCTAssertEqual(try catalogue.aliases(atPath: photo.path).count, 0)
        XCTAssertEqual(try catalogue.recordedFiles(atPath: photo.path).map(\.id), [photo.id])
        var share: [String] = []
        try catalogue.photos(ids: [photo.id, "no such id"]) { share.append($0.id) }
        XCTAssertEqual(share, [photo.id])
        let found = try XCTUnwrap(catalogue.lookedUpPhotos(path: photo.path).first)
        XCTAssertTrue(try catalogue.isCurrent(found))
        XCTAssertEqual(try catalogue.lookedUpPhoto(id: photo.id)?.photo.hash, photo.hash)

        let lookups = Set(catalogue.database.keptStatements).subtracting(wholeTables)
        XCTAssertGreaterThanOrEqual(lookups.count, 15, "each lookup above prepared its statement: \(lookups)")
        for sql in lookups {
            let lines = try plan(sql, in: catalogue.database)
            XCTAssertFalse(lines.isEmpty, sql)
            for line in lines where line.hasPrefix("SCAN ") && !line.hasPrefix("SCAN json_each") {
                XCTFail("\(sql)\nreads a whole table: \(lines.joined(separator: "; "))")
            }
        }
    }

    /// The one read a run and a plan begin with beside their lookups (`CatalogueReader.notCurrent`): it reads the
    /// rows that can make a photo not current (a `replaces`, an alias, a second original) and reaches photos only
    /// by an index, so its cost follows those rows, never the number of photos.
    func testWhatIsNotCurrentIsFoundWithoutReadingEveryPhoto() throws {
        let catalogue = try CatalogueReader(folder: try makeCatalogue())
        defer { catalogue.close() }
        let before = Set(catalogue.database.keptStatements)
        XCTAssertTrue(try catalogue.notCurrent().superseded.isEmpty)
        let statements = Set(catalogue.database.keptStatements).subtracting(before)
        XCTAssertFalse(statements.isEmpty)
        for sql in statements {
            let lines = try plan(sql, in: catalogue.database)
            for line in lines where line.hasPrefix("SCAN ") {
                let table = line.dropFirst(5).split(separator: " ").first.map(String.init) ?? ""
                XCTAssertFalse(["p", "q", "r", "photos"].contains(table), "\(sql)\nreads every photo: \(lines.joined(separator: "; "))")
            }
        }
    }

    func testEveryForeignKeyHasAnIndexStartingWithItsColumn() throws {
        let catalogue = try CatalogueReader(folder: try makeCatalogue())
        defer { catalogue.close() }
        let database = catalogue.database
        let tables = try database.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'") { $0.text(0) ?? "" }
        XCTAssertTrue(tables.contains("photos") && tables.contains("renditions"), "\(tables)")
        var checked = 0
        for table in tables {
            let keys = try database.query("SELECT \"from\" FROM pragma_foreign_key_list(?)", [.text(table)]) { $0.text(0) ?? "" }
            let indexes = try database.query("SELECT name FROM pragma_index_list(?)", [.text(table)]) { $0.text(0) ?? "" }
            var firstColumns: Set<String> = []
            for index in indexes {
                let first = try database.query("SELECT name FROM pragma_index_info(?) ORDER BY seqno LIMIT 1", [.text(index)]) { $0.text(0) ?? "" }
                firstColumns.formUnion(first)
            }
            // An INTEGER PRIMARY KEY is the rowid itself: looked up without an index.
            let rowid = try database.query("SELECT name FROM pragma_table_info(?) WHERE pk = 1 AND type = 'INTEGER'", [.text(table)]) { $0.text(0) ?? "" }
            for key in keys {
                checked += 1
                XCTAssertTrue(firstColumns.contains(key) || rowid.contains(key),
                              "\(table).\(key) references another table and no index starts with it: \(indexes)")
            }
        }
        XCTAssertGreaterThanOrEqual(checked, 8, "the catalogue's foreign keys were found")
    }
}
