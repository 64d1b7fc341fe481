import Foundation
import XCTest
import SQLite
import System
@testable import Catalogue

/// Opening a catalogue to read never writes it (issue 31): no migration, no checkpoint, no byte of `catalogue.db`
/// changed, whatever the reading command. A catalogue that needs migrating says so, and the next writer migrates it.
final class ReadersNeverWriteTests: XCTestCase {
    /// A catalogue made by a real run of 3 photos with thumbnails; the folder that holds the job and the photos.
    func ranCatalogue() throws -> (folder: String, catalogue: String) {
        let folder = try TestSupport.temporaryFolder(self)
        for i in 0..<3 { try Fixture.jpeg(at: "\(folder)/photos/p\(i).jpg", width: 96, height: 64, variant: i) }
        try TestSupport.write("""
            version: 1
            stages:
              - import: {from: photos}
              - thumbnail: {size: 32x32}
            """, to: "job.yml", in: folder)
        let run = try TestSupport.album(["run", "job.yml"], in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        return (folder, folder + "/album")
    }

    /// The database file's bytes and the folder's listing (sizes included), to compare before and after: a reader
    /// may leave SQLite's `-shm` and an empty `-wal` beside the database, nothing else.
    func state(of catalogue: String) throws -> (hash: String, listing: [String]) {
        (try Tool.sha256(catalogue + "/catalogue.db"), try Tool.listingBesideAReadersLog(catalogue))
    }

    func testEveryReadingCommandLeavesTheCatalogueByteForByte() throws {
        let (folder, catalogue) = try ranCatalogue()
        let before = try state(of: catalogue)
        let ls = try TestSupport.album(["ls", "--json", "-c", catalogue], in: folder)
        XCTAssertEqual(ls.status, 0, ls.stderr)
        let photos = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(ls.stdout.utf8)) as? [[String: Any]])
        let id = try XCTUnwrap(photos.first?["id"] as? String)
        for command in [["ls"], ["show", id], ["runs"], ["plan", "job.yml"], ["prune", "--dry-run"], ["rm", "--dry-run", id],
                        ["relocate", "--dry-run", "--from", folder + "/photos", "--to", folder + "/moved"]] {
            let result = try TestSupport.album(command + ["-c", catalogue], in: folder)
            XCTAssertNotEqual(result.status, 3, "\(command): \(result.stderr)")
            let after = try state(of: catalogue)
            XCTAssertEqual(after.hash, before.hash, "\(command) changed catalogue.db")
            XCTAssertEqual(after.listing, before.listing, "\(command) left a file behind")
        }
    }

    /// A log with commits in it (a writer that crashed, or one writing now) is read through, never checkpointed
    /// into the file by a reader: the next writer does that.
    func testAReaderReadsALogWithCommitsAndLeavesItForTheWriter() throws {
        let (folder, catalogue) = try ranCatalogue()
        let writer = try Database(path: catalogue + "/catalogue.db", mode: .readWrite)
        try writer.execute("UPDATE photos SET caption = 'from the log'")
        try writer.skipCheckpointOnClose()
        writer.close()
        let log = try XCTUnwrap(FileStatus.of(catalogue + "/catalogue.db-wal")?.size)
        XCTAssertGreaterThan(log, 0, "the commit is only in the log")
        let before = try state(of: catalogue)
        for command in [["ls", "--json"], ["runs"], ["plan", "job.yml"]] {
            let result = try TestSupport.album(command + ["-c", catalogue], in: folder)
            XCTAssertEqual(result.status, 0, "\(command): \(result.stderr)")
            if command[0] == "ls" { XCTAssert(result.stdout.contains("\"caption\": \"from the log\""), result.stdout) }
            XCTAssertEqual(try Tool.sha256(catalogue + "/catalogue.db"), before.hash, "\(command) checkpointed the log into the file")
            XCTAssertEqual(FileStatus.of(catalogue + "/catalogue.db-wal")?.size, log, "\(command) left the log as it was")
        }
        let verify = try TestSupport.album(["verify", "-c", catalogue], in: folder)
        XCTAssertEqual(verify.status, 0, verify.stdout + verify.stderr)
        XCTAssertNil(FileStatus.of(catalogue + "/catalogue.db-wal"), "a writer checkpoints the log when it closes")
        XCTAssertNotEqual(try Tool.sha256(catalogue + "/catalogue.db"), before.hash)
    }

    /// A reader opened while there was no log, a writer (another process) that commits and closes first, then the
    /// reader's close, as the last connection: it does not checkpoint those commits into the file. They stay in the
    /// log for the next writer, and `catalogue.db` keeps every byte.
    func testAReaderThatClosesLastAfterAWriterNeverCheckpoints() throws {
        let (folder, catalogue) = try ranCatalogue()
        let file = catalogue + "/catalogue.db"
        XCTAssertNil(FileStatus.of(file + "-wal"), "the run's close checkpointed and removed its log")
        let before = try Tool.sha256(file)
        let reader = try CatalogueReader(folder: catalogue)
        XCTAssertEqual(try reader.fetchAll(PhotoRecord.self, "").count, 3)
        XCTAssertEqual(try Tool.sqlite(file, "UPDATE photos SET caption = 'after the reader opened'", writing: true), "")
        let log = try XCTUnwrap(FileStatus.of(file + "-wal")?.size, "the writer left its commit in the log: the reader is open")
        XCTAssertGreaterThan(log, 0)
        XCTAssertEqual(try reader.fetchAll(PhotoRecord.self, "").count, 3, "the reader still reads")
        reader.close()
        XCTAssertEqual(try Tool.sha256(file), before, "the reader's close checkpointed a writer's commits into catalogue.db")
        XCTAssertEqual(FileStatus.of(file + "-wal")?.size, log, "the log is left for the next writer")
        let verify = try TestSupport.album(["verify", "-c", catalogue], in: folder)
        XCTAssertEqual(verify.status, 0, verify.stdout + verify.stderr)
        XCTAssertNil(FileStatus.of(file + "-wal"), "a writer checkpoints the log when it closes")
        XCTAssertEqual(try Tool.sqlite(file, "SELECT DISTINCT caption FROM photos"), "after the reader opened")
    }

    /// A version-6 catalogue (before issue 31) read by a reader: refused in words a person can act on, not one byte
    /// changed; `album verify`, a writer, migrates it to the current version, rows kept, and the readers read it.
    func testAnOlderSchemaIsNotMigratedByAReaderAndTheNextWriterMigratesIt() throws {
        let (folder, catalogue) = try ranCatalogue()
        let file = catalogue + "/catalogue.db"
        let rows = "SELECT * FROM renditions ORDER BY id; SELECT * FROM steps ORDER BY id; SELECT * FROM photos ORDER BY id"
        let stored = try Tool.sqlite(file, rows)
        try CatalogueTests.makeVersion6(file)
        XCTAssertEqual(try Tool.sqlite(file, "PRAGMA user_version"), "6")
        let before = try state(of: catalogue)
        for command in [["ls"], ["show", "photos/p0.jpg"], ["runs"], ["plan", "job.yml"], ["prune", "--dry-run"]] {
            let result = try TestSupport.album(command + ["-c", catalogue], in: folder)
            XCTAssertEqual(result.status, 3, "\(command): \(result.stdout) \(result.stderr)")
            XCTAssert(result.stderr.contains("has an older schema (version 6; this album reads \(Schema.currentVersion)), and a command that only reads never migrates it: run `album verify --catalogue \(catalogue)` once"),
                      "\(command): \(result.stderr)")
            let after = try state(of: catalogue)
            XCTAssertEqual(after.hash, before.hash, "\(command) wrote the older catalogue")
            XCTAssertEqual(after.listing, before.listing, "\(command) left a file behind")
        }
        let verify = try TestSupport.album(["verify", "-c", catalogue], in: folder)
        XCTAssertEqual(verify.status, 0, verify.stdout + verify.stderr)
        XCTAssertEqual(try Tool.sqlite(file, "PRAGMA user_version"), "\(Schema.currentVersion)")
        XCTAssertEqual(try Tool.sqlite(file, rows), stored, "every row kept as it was")
        let tables = try Tool.sqlite(file, "SELECT sql FROM sqlite_master WHERE name IN ('renditions', 'steps')")
        XCTAssertFalse(tables.contains("kind IN"), "a rendition kind is checked by album's types, not a CHECK: \(tables)")
        XCTAssertFalse(tables.contains("stage IN"), "a stage is checked by album's types, not a CHECK: \(tables)")
        let ls = try TestSupport.album(["ls", "-c", catalogue], in: folder)
        XCTAssertEqual(ls.status, 0, ls.stderr)
        XCTAssert(ls.stdout.contains("p2.jpg"), ls.stdout)
    }
}

/// The reader type has no write method: the compiler refuses a write through a `CatalogueReader`, as long as every
/// method that writes is declared on `Catalogue`. This holds that line in the sources: no `extension
/// CatalogueReader` (nor the class itself) calls what writes.
final class ReaderTypeTests: XCTestCase {
    func testNoReaderMethodWrites() throws {
        // Every Swift file under Sources/, wherever the catalogue's files live.
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources").path
        let files = (FileManager.default.enumerator(atPath: sources)?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".swift") }
        let writes = ["database.run(", "database.execute(", "insertRow(", "transaction {", "begin()", "commit()",
                      "FileSystem.remove", "FileSystem.unlink", "AtomicFile"]
        var readerBlocks = 0
        for name in files.sorted() {
            let text = try String(contentsOfFile: sources + "/" + name, encoding: .utf8)
            var inReader = false
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                if line.hasPrefix("extension CatalogueReader") || line.hasPrefix("public class CatalogueReader") {
                    inReader = true
                    readerBlocks += 1
                } else if line.hasPrefix("}") {
                    inReader = false
                }
                guard inReader, !line.trimmingCharacters(in: .whitespaces).hasPrefix("///") else { continue }
                for write in writes where line.contains(write) {
                    XCTFail("\(name):\(number + 1): a CatalogueReader method writes (\(write)); declare it in an extension of Catalogue, the writer")
                }
            }
        }
        XCTAssertGreaterThan(readerBlocks, 10, "the reader's methods were found")
    }

    /// The reader is a read door only: its connection, and what opens one, are internal to the Catalogue module, so
    /// no other layer can run SQL (a write included) through a reader. A writer lends its connection to a service
    /// above the store only through `Catalogue.connection`.
    func testOnlyTheCatalogueModuleReachesTheConnection() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/Catalogue").path
        let names = ["let database:", "struct Opened", "func openForReading", "func openForWriting", "var insertSQL",
                     "let checkedInFull", "init(folder: String, _ opened", "init(writing"]
        var found = Set<String>()
        for file in ["CatalogueReader.swift", "Catalogue+Open.swift", "Catalogue.swift"] {
            let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
            for line in text.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).hasPrefix("///") {
                for name in names where line.contains(name) {
                    found.insert(name)
                    XCTAssertFalse(line.contains("package ") || line.contains("public ") || line.contains("open "),
                                   "\(file): `\(line.trimmingCharacters(in: .whitespaces))` is reachable outside Catalogue; keep it internal")
                }
            }
        }
        XCTAssertEqual(found, Set(names), "each declaration was found")
    }
}
