import XCTest
import SQLite
@testable import Core
@testable import Catalogue
@testable import Stages

/// Records read and written by column name: every column of every table is mapped, a catalogue written with
/// positional SQL before the mapping by name (as album up to issue 15 wrote it) reads back field for field, and a
/// column of the wrong type fails with a message that names it.
final class RecordMappingTests: XCTestCase {
    let photo = PhotoRecord(
        id: "6cf78399-0000-4000-8000-000000000001", hash: "aa11", path: "/p/a.jpg", bytes: 1234, mtimeNanoseconds: 1_700_000_000_123_456_789,
        inode: 77, width: 320, height: 200, format: "jpeg", taken: "2008-04-20T19:12:06+02:00", added: "2024-01-01T00:00:00.000Z",
        caption: "Wood in April", filter: "sepia", filterRecipe: #"[{"sepia":{"amount":0.85}}]"#, camera: "Canon EOS 5D",
        orientation: 6, hasGPS: true, replaces: nil, storedPath: "originals/6c/6cf78399.jpg")

    /// The columns the schema gives `table`, but those SQLite fills itself.
    func columns(_ table: String, in catalogue: Catalogue, except own: Set<String>) throws -> [String] {
        try catalogue.database.query("SELECT name FROM pragma_table_info(?) ORDER BY cid", [.text(table)]) { try $0["name"] as String }
            .filter { !own.contains($0) }
    }

    func testEveryRecordWritesEveryColumnOfItsTableButThoseTheTableFills() throws {
        let catalogue = try Catalogue(folder: try TestSupport.temporaryFolder(self), create: true)
        defer { catalogue.close() }
        let run = RunRecord(id: 1, job: "j", jobPath: nil, jobHash: nil, started: "s", finished: nil, status: "running",
                            counts: nil, albumVersion: "a", vipsVersion: "v", sqliteVersion: "q", host: "h")
        let rendition = Rendition(photo: "p", kind: .thumbnail, parametersHash: "ph", inputHash: "ih", path: "/t", fileHash: "fh",
                                  width: 1, height: 1, bytes: 1, run: 1)
        let step = StepRecord(run: 1, photo: nil, path: "/p", stage: .import, parameters: "{}", inputHash: nil, outputHash: nil,
                              milliseconds: 0, status: .done, error: nil)
        XCTAssertEqual(photo.values.map(\.column), try columns("photos", in: catalogue, except: []))
        XCTAssertEqual(rendition.values.map(\.column), try columns("renditions", in: catalogue, except: ["id"]))
        XCTAssertEqual(run.values.map(\.column), try columns("runs", in: catalogue, except: ["id"]))
        XCTAssertEqual(step.values.map(\.column), try columns("steps", in: catalogue, except: ["id", "at"]))
        let alias = PhotoAlias(photo: "p", path: "/p/b.jpg", bytes: 1, mtimeNanoseconds: 2, inode: 3, added: "a")
        XCTAssertEqual(alias.values.map(\.column), try columns("aliases", in: catalogue, except: []))
        let second = SecondOriginal(photo: "p", path: "/p/b.cr2", format: "cr2", hash: "h", bytes: 1, mtimeNanoseconds: 2, inode: 3, added: "a")
        XCTAssertEqual(second.values.map(\.column), try columns("second_originals", in: catalogue, except: []))
    }

    /// A row whose every column holds a value of its declared type that no default has (for a CHECKed column, an
    /// allowed one) reads into a record whose `values` give back each of them: a column that `init(row:)` forgets
    /// to read comes back as its default and fails here, without this test naming any column.
    func testEveryColumnOfARowIsReadIntoItsRecord() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try Catalogue(folder: folder, create: true).close()
        let raw = try Database(path: folder + "/" + Catalogue.databaseName)  // foreign keys off: rows need no parents
        defer { raw.close() }
        // A step's params must be a JSON object (`StepRecord.checkedParameters`).
        let allowed: [String: Value] = ["kind": "thumbnail", "stage": "export", "status": "failed", "has_gps": 1, "params": #"{"p":5}"#,
                                      "keywords": #"["beach","Places|Europe|Paris"]"#]
        func roundTrip<R: TableRecord>(_ type: R.Type, read: (CatalogueReader) throws -> [R]) throws {
            let columns = try raw.query("SELECT name, type FROM pragma_table_info(?) ORDER BY cid", [.text(R.table)]) {
                (try $0["name"] as String, try $0["type"] as String)
            }
            var written: [String: Value] = [:]
            for (offset, (name, type)) in columns.enumerated() {
                written[name] = allowed[name] ?? (type == "INTEGER" ? .integer(Int64(offset + 2)) : type == "REAL" ? .real(Double(offset) + 0.5) : .text("\(name)-\(offset)"))
            }
            try raw.run("INSERT INTO \(R.table) (\(columns.map(\.0).joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ",")))",
                        columns.map { written[$0.0]! })
            let catalogue = try CatalogueReader(folder: folder)
            defer { catalogue.close() }
            // Paths are read resolved against the catalogue folder (`CataloguePaths`): stored again, as `insertRow` does.
            var record = try XCTUnwrap(read(catalogue).first, R.table)
            record.mapPaths(catalogue.paths.stored)
            for (column, value) in record.values {
                XCTAssertEqual(value, written[column], "\(R.table).\(column) is read by init(row:)")
            }
        }
        try roundTrip(PhotoRecord.self) { try $0.allPhotos() }
        try roundTrip(Rendition.self) { try $0.renditions(kind: nil) }
        try roundTrip(RunRecord.self) { try $0.runs() }
        try roundTrip(StepRecord.self) { try $0.steps(run: 3) }  // `run` is steps' column 1: the integer 1 + 2
        try roundTrip(PhotoAlias.self) { try $0.allAliases() }
        try roundTrip(SecondOriginal.self) { try $0.allSecondOriginals() }
    }

    /// A table as SQLite describes it: each column's name, type, NOT NULL, default and key, then its foreign keys.
    func tableInfo(_ table: String, in database: Database) throws -> [String] {
        try database.query("SELECT name, type, \"notnull\", dflt_value, pk FROM pragma_table_info(?) ORDER BY cid", [.text(table)]) {
            "\($0.text(0) ?? "") \($0.text(1) ?? "") notnull=\($0.int(2) ?? -1) default=\($0.text(3) ?? "NULL") pk=\($0.int(4) ?? -1)"
        } + database.query("SELECT \"from\", \"table\", \"to\", on_delete FROM pragma_foreign_key_list(?) ORDER BY id", [.text(table)]) {
            "\($0.text(0) ?? "") references \($0.text(1) ?? "")(\($0.text(2) ?? "")) on delete \($0.text(3) ?? "")"
        }
    }

    /// Each table the migrations make is the table its record's `columns` declare, column for column: name, type,
    /// NOT NULL, default, key and foreign key. A declaration that drifts from the schema, or a migration that
    /// drifts from the declarations, fails here, naming the table.
    func testEveryTableIsTheOneItsColumnsDeclare() throws {
        let catalogue = try Catalogue(folder: try TestSupport.temporaryFolder(self), create: true)
        defer { catalogue.close() }
        let declared = try Database(path: ":memory:")
        defer { declared.close() }
        for record in Schema.records {
            try declared.execute(record.declaredDefinition)
            XCTAssertEqual(try tableInfo(record.table, in: declared), try tableInfo(record.table, in: catalogue.database), record.table)
        }
        XCTAssertEqual(Schema.currentVersion, Schema.migrations.count + 3, "schema 8 (second_originals, photos.lens and the XMP columns), 9 (issue 34's indexes, issue 33's motion columns) and 10 (issue 33's video facts and second_originals.duration) are the versions after the fixed history")
        XCTAssertTrue(Schema.migration(to: 10).contains("ALTER TABLE photos ADD COLUMN duration REAL;"), Schema.migration(to: 10))
        XCTAssertTrue(Schema.migration(to: 10).contains("ALTER TABLE photos ADD COLUMN longitude REAL;"), Schema.migration(to: 10))
        // An index added to an older table is created by the migration to its version.
        XCTAssertTrue(Schema.migration(to: 9).contains("CREATE INDEX photos_replaces ON photos(replaces);"), Schema.migration(to: 9))
        XCTAssertTrue(Schema.migration(to: 9).contains("ALTER TABLE photos ADD COLUMN motion_offset INTEGER;"), Schema.migration(to: 9))
        // A table declared after the fixed history is created by the migration to its version, with its indexes and
        // only the columns declared by then; a column declared later is added by its own version's migration.
        XCTAssertTrue(Schema.migration(to: 8).hasPrefix(SecondOriginal.definition(at: 8) + ";\n" + SecondOriginal.indexes.joined(separator: ";\n") + ";"),
                      Schema.migration(to: 8))
        XCTAssertFalse(Schema.migration(to: 8).contains("duration"), Schema.migration(to: 8))
        XCTAssertTrue(Schema.migration(to: 10).contains("ALTER TABLE second_originals ADD COLUMN duration REAL;"), Schema.migration(to: 10))
        XCTAssertEqual(try catalogue.database.query("SELECT name FROM sqlite_master WHERE tbl_name = 'second_originals' AND type = 'index' AND sql IS NOT NULL") { $0.text(0) },
                       ["second_originals_path"])
    }

    /// The distributed tables and the identity are read and written through their declarations, and store what the
    /// hand-written SQL stored: the same values, of the same SQLite types (the sqlite3 shell's `quote` and `typeof`).
    func testTheDistributedRecordsAndTheIdentityStoreWhatTheirSQLStored() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let catalogue = try Catalogue(folder: folder, create: true)
        let run = RunRecord(id: 1, job: "j", jobPath: nil, jobHash: nil, started: "s", finished: nil, status: "running",
                            counts: nil, albumVersion: "a", vipsVersion: "v", sqliteVersion: "q", host: "h")
        try catalogue.insertRow(run)
        try catalogue.beginDistributed(run: 1, folder: "dist/run-1", engine: "local", chunks: 2, created: "2026-01-01T00:00:00.000Z")
        try catalogue.recordMergedChunk(DistributedChunkRecord(run: 1, chunk: 0, merged: "m0", photos: 5, failed: 1))
        try catalogue.recordMergedChunk(DistributedChunkRecord(run: 1, chunk: 1, merged: "m1", photos: 4, failed: 0))
        try catalogue.recordMergedChunk(DistributedChunkRecord(run: 1, chunk: 0, merged: "m0 again", photos: 6, failed: 2))
        XCTAssertEqual(try catalogue.openDistributedRun(), DistributedRecord(run: 1, folder: "dist/run-1", engine: "local", chunks: 2, state: "open",
                                                                           created: "2026-01-01T00:00:00.000Z", ended: nil))
        XCTAssertEqual(try catalogue.mergedChunks(of: 1), [0: "m0 again", 1: "m1"], "merging a chunk again replaces its row")
        XCTAssertEqual(try catalogue.mergedChunkFailures(of: 1), 2)
        try catalogue.endDistributed(run: 1, state: "merged", status: "ok", counts: nil, at: "e")
        XCTAssertEqual(try catalogue.distributedRun(1)?.ended, "e")
        XCTAssertNil(try catalogue.openDistributedRun())
        let identity = try catalogue.identity()
        catalogue.close()

        let file = folder + "/" + Catalogue.databaseName
        XCTAssertEqual(try Tool.sqlite(file, "SELECT quote(run), typeof(run), quote(folder), quote(engine), quote(chunks), typeof(chunks), quote(state), quote(created), quote(ended) FROM distributed"),
                       "1|integer|'dist/run-1'|'local'|2|integer|'merged'|'2026-01-01T00:00:00.000Z'|'e'")
        XCTAssertEqual(try Tool.sqlite(file, "SELECT quote(run), quote(chunk), quote(merged), quote(photos), quote(failed), typeof(photos) || typeof(failed) FROM distributed_chunks ORDER BY chunk"),
                       "1|0|'m0 again'|6|2|integerinteger\n1|1|'m1'|4|0|integerinteger")
        XCTAssertEqual(try Tool.sqlite(file, "SELECT id FROM identity"), identity)
        XCTAssertEqual(identity.count, 32)
    }

    /// docs/catalogue.md, "Adding a column", compiled: a photo with `stars`, declared on one line. Here it is a
    /// record that extends `PhotoRecord` (a test cannot add a property to it); in album, the line goes into
    /// `PhotoRecord.columns` and the property into `PhotoRecord`.
    struct RatedPhoto: TableRecord, Equatable {
        static let table = "photos"
        var photo: PhotoRecord
        var stars: Int? = nil

        static let columns: [Column<RatedPhoto>] = PhotoRecord.columns.map { $0.lifted(\RatedPhoto.photo) } + [
            .column("stars", "INTEGER", \.stars, since: Schema.currentVersion + 1,
                    json: (PhotoRecord.columns.compactMap(\.jsonPosition).max() ?? 0) + 1),  // the one line
        ]
        static let blank = RatedPhoto(photo: PhotoRecord.blank)
    }

    func testANewColumnIsMigratedWrittenReadAndShownFromItsDeclarationAlone() throws {
        let next = Schema.currentVersion + 1
        let migration = Schema.migration(to: next, records: [RatedPhoto.self])
        XCTAssertEqual(migration, "ALTER TABLE photos ADD COLUMN stars INTEGER;", "the migration comes from the declaration")
        let catalogue = try Catalogue(folder: try TestSupport.temporaryFolder(self), create: true)
        defer { catalogue.close() }
        try catalogue.connection { try $0.execute(migration) }
        let declared = try Database(path: ":memory:")
        defer { declared.close() }
        try declared.execute(RatedPhoto.declaredDefinition)
        XCTAssertEqual(try tableInfo("photos", in: catalogue.database), try tableInfo("photos", in: declared))

        let rated = RatedPhoto(photo: photo, stars: 4)
        XCTAssertEqual(rated.values.last?.column, "stars")
        XCTAssertEqual(rated.values.last?.value, .integer(4))
        try catalogue.insertRow(rated)
        XCTAssertEqual(try catalogue.fetchAll(RatedPhoto.self, ""), [rated], "written by values, read whole by init(row:)")
        XCTAssertEqual(try catalogue.allPhotos(), [photo], "PhotoRecord, which does not declare it, reads the row as before")
        guard case .object(let shown) = photo.json else { return XCTFail("a photo's JSON is an object") }
        XCTAssertEqual(rated.columnJSON.map(\.0), shown.map(\.0) + ["stars"], "shown in its place, after what ls --json printed")
        XCTAssertEqual(rated.columnJSON.last?.1, .int(4))
    }

    /// The JSON places each record declares are distinct, so its JSON object has one order.
    func testEachRecordsJSONPlacesAreDistinct() {
        for (name, places) in [("photos", PhotoRecord.columns.compactMap(\.jsonPosition)), ("renditions", Rendition.columns.compactMap(\.jsonPosition))] {
            XCTAssertEqual(Set(places).count, places.count, name)
        }
    }

    /// A step's `params` is an object, or `null` (album records that for a failed step whose recipe it could not
    /// read): both are album's own and read back; any other text is damage and names the table.
    func testAStepsParamsMayBeAnObjectOrNullAndNothingElse() throws {
        XCTAssertEqual(try StepRecord.checkedParameters(#"{"size":"240x240"}"#), #"{"size":"240x240"}"#)
        XCTAssertEqual(try StepRecord.checkedParameters(JSONValue.null.text), "null")
        XCTAssertThrowsError(try StepRecord.checkedParameters("\u{1}\u{2}garbage")) { error in
            XCTAssertTrue("\(error)".contains("table steps: column params"), "\(error)")
        }
    }

    /// The catalogue is made as album wrote it before records were mapped by name: the schema's SQL, then rows
    /// inserted by position with `?`s, exactly as that album's `insert`, `record`, `beginRun` and `setCaption` did.
    func testACatalogueWrittenByPositionOpensAndReadsBackFieldForField() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let old = try Database(path: folder + "/" + Catalogue.databaseName)
        let declaredLater = (Schema.migrations.count + 1...max(Schema.migrations.count + 1, Schema.currentVersion)).map { Schema.migration(to: $0) }
        try old.execute((Schema.migrations + declaredLater).joined(separator: "\n") + "\nPRAGMA user_version = \(Schema.currentVersion);")
        try old.run("""
            INSERT INTO photos (id, hash, path, bytes, mtime_ns, inode, width, height, format, taken, added, caption, filter, \
            filter_recipe, camera, orientation, has_gps, replaces, stored_path) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)
            """, [.text(photo.id), .text(photo.hash), .text(photo.path), .int(photo.bytes), .int(photo.mtimeNanoseconds),
                  .int(photo.inode), .int(photo.width), .int(photo.height), .text(photo.format), .text(photo.taken),
                  .text(photo.added), .text(photo.caption), .text(photo.filter), .text(photo.filterRecipe),
                  .text(photo.camera), .int(photo.orientation), .int(1), .null, .text(photo.storedPath)])
        try old.run("""
            INSERT INTO runs (job, job_path, job_hash, started, album_version, vips_version, sqlite_version, host)
            VALUES (?,?,?,?,?,?,?,?)
            """, ["demo", "/j/demo.yml", "jh", "2024-01-01T00:00:00.000Z", "0.9.0", "8.14.1", "3.40.1", "host"])
        try old.run("UPDATE runs SET finished = ?, status = ?, counts = ? WHERE id = ?",
                    ["2024-01-01T00:00:01.000Z", "ok", #"{"thumbnail":{"done":1,"skipped":0,"failed":0}}"#, 1])
        try old.run("""
            INSERT INTO steps (run, photo, path, stage, params, input_hash, output_hash, ms, status, error)
            VALUES (?,?,?,?,?,?,?,?,?,?)
            """, [1, .text(photo.id), "/p/a.jpg", "thumbnail", #"{"size":"240x240"}"#, "aa11", "th", 12.5, "done", nil])
        try old.run("""
            INSERT INTO steps (run, photo, path, stage, params, input_hash, output_hash, ms, status, error)
            VALUES (?, ?, ?, 'caption', ?, ?, NULL, 0, ?, ?)
            """, [1, .text(photo.id), "/p/a.jpg", #"{"caption":"Wood in April"}"#, "aa11", "skipped", "already the caption"])
        try old.run("""
            INSERT INTO renditions (photo, kind, params_hash, input_hash, path, file_hash, width, height, bytes, run) VALUES (?,?,?,?,?,?,?,?,?,?)
            """, [.text(photo.id), "thumbnail", "ph", "aa11", "/c/thumbnails/6c/x.jpg", "th", 240, 150, 999, 1])
        old.close()

        let catalogue = try CatalogueReader(folder: folder)
        defer { catalogue.close() }
        XCTAssertEqual(try catalogue.allPhotos(), [photo])
        XCTAssertEqual(try catalogue.renditions(photo: photo.id), [
            Rendition(photo: photo.id, kind: .thumbnail, parametersHash: "ph", inputHash: "aa11", path: "/c/thumbnails/6c/x.jpg",
                      fileHash: "th", width: 240, height: 150, bytes: 999, run: 1),
        ])
        XCTAssertEqual(try catalogue.runs(), [
            RunRecord(id: 1, job: "demo", jobPath: "/j/demo.yml", jobHash: "jh", started: "2024-01-01T00:00:00.000Z",
                      finished: "2024-01-01T00:00:01.000Z", status: "ok", counts: #"{"thumbnail":{"done":1,"skipped":0,"failed":0}}"#,
                      albumVersion: "0.9.0", vipsVersion: "8.14.1", sqliteVersion: "3.40.1", host: "host"),
        ])
        XCTAssertEqual(try catalogue.steps(run: 1), [
            StepRecord(run: 1, photo: photo.id, path: "/p/a.jpg", stage: .thumbnail, parameters: #"{"size":"240x240"}"#,
                       inputHash: "aa11", outputHash: "th", milliseconds: 12.5, status: .done, error: nil),
            StepRecord(run: 1, photo: photo.id, path: "/p/a.jpg", stage: .caption, parameters: #"{"caption":"Wood in April"}"#,
                       inputHash: "aa11", outputHash: nil, milliseconds: 0, status: .skipped, error: "already the caption"),
        ], "a REAL column holding the integer 0 reads as a Double")
        let history = try catalogue.history(photo: photo.id)
        XCTAssertEqual(history.map(\.stage), ["thumbnail", "caption"])
        XCTAssertEqual(history.map(\.milliseconds), [12.5, 0])
        XCTAssertEqual(history.last?.error, "already the caption")
        // Counted from the rows (for a run that recorded no counts): done and failed, and skipped not counted.
        XCTAssertEqual(try catalogue.countedSteps(run: 1, stages: StageRegistry.names).text, #"{"import":{"done":0,"skipped":null,"failed":0},"#
                       + #""filter":{"done":0,"skipped":null,"failed":0},"thumbnail":{"done":1,"skipped":null,"failed":0},"#
                       + #""export":{"done":0,"skipped":null,"failed":0},"caption":{"done":0,"skipped":null,"failed":0}}"#)
        XCTAssertEqual(try catalogue.stepCounts(run: 1), [.thumbnail: [.done: 1]], "the run's recorded counts")
    }

    func testAColumnOfTheWrongTypeOrNameFailsNamingTheColumnAndTheSQL() throws {
        let catalogue = try Catalogue(folder: try TestSupport.temporaryFolder(self), create: true)
        defer { catalogue.close() }
        try catalogue.insert(photo)
        try catalogue.database.run("UPDATE photos SET width = 'wide'")
        XCTAssertThrowsError(try catalogue.allPhotos()) { error in
            let failure = error as? SQLiteError
            XCTAssertEqual(failure?.code, 20, "SQLITE_MISMATCH")
            XCTAssertEqual(failure?.message, "table photos: column width holds text 'wide', expected an integer")
            XCTAssertEqual(failure?.sql?.hasPrefix("SELECT * FROM photos"), true, "\(String(describing: failure?.sql))")
        }
        try catalogue.database.run("UPDATE photos SET width = 320, has_gps = 2")
        XCTAssertThrowsError(try catalogue.allPhotos()) { error in
            XCTAssertEqual((error as? SQLiteError)?.message, "table photos: column has_gps holds an integer, expected 0 or 1")
        }
        XCTAssertThrowsError(try catalogue.database.query("SELECT id FROM photos") { try $0["width"] as Int }) { error in
            XCTAssertEqual((error as? SQLiteError)?.message, "the query returns no column named width")
        }
        XCTAssertThrowsError(try catalogue.database.query("SELECT NULL AS taken") { try $0["taken"] as String }) { error in
            XCTAssertEqual((error as? SQLiteError)?.message, "column taken holds NULL, expected text")
        }
        XCTAssertEqual(try catalogue.database.query("SELECT NULL AS taken") { try $0["taken"] as String? }, [nil])
        XCTAssertThrowsError(try catalogue.database.query("SELECT 'Flat' AS kind") { try $0["kind"] as Rendition.Kind }) { error in
            XCTAssertEqual((error as? SQLiteError)?.message, "column kind holds text 'Flat', expected a name: lowercase letters, digits and hyphens, starting with a letter")
        }
    }
}
