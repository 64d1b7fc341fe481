import Foundation
import XCTest
@testable import Catalogue

/// A catalogue this user cannot write (another user's, a read-only mount, a backup) can still be read, and reading
/// it leaves no file behind. Tests run as root, who ignores file modes, so album runs as nobody (setpriv).
final class ReadOnlyCatalogueTests: XCTestCase {
    let nobody = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]

    /// A catalogue made by a real run of 4 photos with thumbnails, its lock file removed (writers leave it), and
    /// run 1 marked `running` again, as a killed run leaves it. Folders are opened to everyone so nobody reaches it.
    func catalogue() throws -> (folder: String, catalogue: String) {
        try XCTSkipUnless(getuid() == 0, "needs root, to run album as another user")
        let folder = try TestSupport.temporaryFolder(self)
        for i in 0..<4 { try Fixture.jpeg(at: "\(folder)/photos/p\(i).jpg", width: 96, height: 64, variant: i) }
        try TestSupport.write("""
            version: 1
            stages:
              - import: {from: photos}
              - thumbnail: {size: 32x32}
            """, to: "job.yml", in: folder)
        let run = try TestSupport.album(["run", "job.yml"], in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        let catalogue = folder + "/album"
        _ = try Tool.sqlite(catalogue + "/catalogue.db", "UPDATE runs SET status = 'running'", writing: true)
        try FileManager.default.removeItem(atPath: catalogue + "/catalogue.lock")
        XCTAssertEqual(chmod(folder, 0o755), 0)
        try FileManager.default.createDirectory(atPath: folder + "/out", withIntermediateDirectories: true)
        XCTAssertEqual(chmod(folder + "/out", 0o777), 0, "the report's folder is nobody's to write")
        addTeardownBlock { _ = chmod(catalogue, 0o755) }
        return (folder, catalogue)
    }

    /// Runs every reading command as nobody and checks each works, that verify says it did not lock, and that the
    /// catalogue's files are as they were.
    func assertReadersWork(folder: String, catalogue: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let before = try Tool.listing(catalogue)
        let database = catalogue + "/catalogue.db"
        let hash = try Tool.sha256(database)
        let ls = try TestSupport.album(["ls", "--catalogue", catalogue, "--json"], in: folder, through: nobody)
        XCTAssertEqual(ls.status, 0, ls.stderr, file: file, line: line)
        let photos = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(ls.stdout.utf8)) as? [[String: Any]], file: file, line: line)
        XCTAssertEqual(photos.count, 4, file: file, line: line)
        let id = try XCTUnwrap(photos.first?["id"] as? String, file: file, line: line)
        let show = try TestSupport.album(["show", id, "--catalogue", catalogue], in: folder, through: nobody)
        XCTAssertEqual(show.status, 0, show.stderr, file: file, line: line)
        XCTAssert(show.stdout.contains("thumbnail"), show.stdout, file: file, line: line)
        let runs = try TestSupport.album(["runs", "--catalogue", catalogue], in: folder, through: nobody)
        XCTAssertEqual(runs.status, 0, runs.stderr, file: file, line: line)
        XCTAssert(runs.stdout.contains("running"), runs.stdout, file: file, line: line)
        let report = try TestSupport.album(["report", "--catalogue", catalogue, "--out", folder + "/out/report.html"],
                                           in: folder, through: nobody)
        XCTAssertEqual(report.status, 0, report.stderr, file: file, line: line)
        XCTAssert(FileManager.default.fileExists(atPath: folder + "/out/report.html"), file: file, line: line)
        let verify = try TestSupport.album(["verify", "--catalogue", catalogue], in: folder, through: nobody)
        XCTAssertEqual(verify.status, 0, verify.stdout + verify.stderr, file: file, line: line)
        XCTAssert(verify.stderr.contains("is read-only to this user: checked without its lock"), verify.stderr, file: file, line: line)

        XCTAssertEqual(try Tool.listing(catalogue), before, "no -wal, -shm or lock file left", file: file, line: line)
        XCTAssertEqual(try Tool.sha256(database), hash, file: file, line: line)
        XCTAssertEqual(try Tool.sqlite(database, "SELECT status FROM runs"), "running",
                       "a read-only verify does not mark the run interrupted", file: file, line: line)
        let write = try TestSupport.album(["run", "job.yml", "--catalogue", catalogue], in: folder, through: nobody)
        XCTAssertEqual(write.status, 3, write.stderr, file: file, line: line)
        XCTAssert(write.stderr.contains("is not writable: Permission denied"), write.stderr, file: file, line: line)
        XCTAssertEqual(try Tool.listing(catalogue), before, "a refused writer leaves no file either", file: file, line: line)
    }

    func testReadersWorkOnACatalogueWhoseFolderAndFileAreReadOnly() throws {
        let (folder, catalogue) = try catalogue()
        XCTAssertEqual(chmod(catalogue + "/catalogue.db", 0o444), 0)
        XCTAssertEqual(chmod(catalogue, 0o555), 0)
        try assertReadersWork(folder: folder, catalogue: catalogue)
    }

    func testReadersLeaveNoFileInAWritableFolderWhenTheDatabaseIsReadOnly() throws {
        let (folder, catalogue) = try catalogue()
        XCTAssertEqual(chmod(catalogue + "/catalogue.db", 0o444), 0)
        XCTAssertEqual(chmod(catalogue, 0o777), 0)
        try assertReadersWork(folder: folder, catalogue: catalogue)
    }

    func testAReadOnlyReaderOfAnOlderSchemaSaysAWriterMustMigrateIt() throws {
        try XCTSkipUnless(getuid() == 0, "needs root, to run album as another user")
        let folder = try TestSupport.temporaryFolder(self)
        XCTAssertEqual(chmod(folder, 0o755), 0)
        let catalogue = folder + "/album", database = catalogue + "/catalogue.db"
        try FileManager.default.createDirectory(atPath: catalogue, withIntermediateDirectories: true)
        _ = try Tool.sqlite(database, "PRAGMA journal_mode = WAL;\n" + Schema.migrations[0] + "\nPRAGMA user_version = 1;", writing: true)
        XCTAssertEqual(chmod(database, 0o444), 0)
        XCTAssertEqual(chmod(catalogue, 0o555), 0)
        addTeardownBlock { _ = chmod(catalogue, 0o755) }
        let before = try Tool.listing(catalogue)
        for command in [["ls"], ["runs"], ["verify"]] {
            let result = try TestSupport.album(command + ["--catalogue", catalogue], in: folder, through: nobody)
            XCTAssertEqual(result.status, 3, "\(command[0]): \(result.stderr)")
            XCTAssert(result.stderr.contains("has an older schema (version 1; this album reads \(Schema.currentVersion)), and this user cannot write it"),
                      "\(command[0]): \(result.stderr)")
            XCTAssert(result.stderr.contains("a writer must open it once"), result.stderr)
        }
        XCTAssertEqual(try Tool.listing(catalogue), before)
        // Root may write it: its ls still does not migrate it (a reader never writes) and says what does; its
        // verify, a writer, migrates it, and then ls lists it.
        XCTAssertEqual(chmod(catalogue, 0o755), 0)
        XCTAssertEqual(chmod(database, 0o644), 0)
        let refused = try TestSupport.album(["ls", "--catalogue", catalogue], in: folder)
        XCTAssertEqual(refused.status, 3, refused.stderr)
        XCTAssert(refused.stderr.contains("a command that only reads never migrates it: run `album verify --catalogue \(catalogue)` once"), refused.stderr)
        XCTAssertEqual(try Tool.sqlite(database, "PRAGMA user_version"), "1")
        let verify = try TestSupport.album(["verify", "--catalogue", catalogue], in: folder)
        XCTAssertEqual(verify.status, 0, verify.stdout + verify.stderr)
        XCTAssertEqual(try Tool.sqlite(database, "PRAGMA user_version"), "\(Schema.currentVersion)")
        let ls = try TestSupport.album(["ls", "--catalogue", catalogue], in: folder)
        XCTAssertEqual(ls.status, 0, ls.stderr)
    }
}
