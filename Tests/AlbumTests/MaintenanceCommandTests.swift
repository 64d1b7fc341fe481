import XCTest
import SQLite
@testable import Catalogue

/// `album caption`, `rm`, `verify` and `gc` through the built binary, on catalogues made by real runs.
final class MaintenanceCommandTests: XCTestCase {
    /// Runs a job over three photos (two taken in April 2008, so sepia) with thumbnails and exports beside the
    /// catalogue, and returns the photos' ids by file name.
    func makeCatalogue(in folder: String, mode: String = "reference") throws -> [String: String] {
        try Fixture.jpeg(at: "\(folder)/photos/storm.jpg", taken: "2008:04:20 19:12:06")
        try Fixture.jpeg(at: "\(folder)/photos/wood.jpg", taken: "2008:04:19 13:43:16")
        try Fixture.jpeg(at: "\(folder)/photos/dune.jpg", width: 200, height: 300)
        try TestSupport.write("""
            version: 1
            name: album
            stages:
              - import: {from: photos, mode: \(mode)}
              - filter: {preset: sepia, keep: full-size, select: {taken: 2008-04-01..2008-04-30}}
              - thumbnail: {size: 120x120}
              - export: {from: thumbnail, to: "out/{name}.jpg"}
            """, to: "job.yml", in: folder)
        let run = try TestSupport.album(["run", "job.yml"], in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        return try ids(in: folder)
    }

    func ids(in folder: String) throws -> [String: String] {
        let catalogue = try Catalogue(folder: folder + "/album", create: false)
        defer { catalogue.close() }
        return Dictionary(uniqueKeysWithValues: try catalogue.allPhotos().map { (($0.path as NSString).lastPathComponent, $0.id) })
    }

    func renditions(_ id: String, in folder: String) throws -> [Rendition] {
        let catalogue = try Catalogue(folder: folder + "/album", create: false)
        defer { catalogue.close() }
        return try catalogue.renditions(photo: id)
    }

    func testCaptionSetsTheCaptionAndRecordsAStepInItsOwnRun() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let storm = try XCTUnwrap(try makeCatalogue(in: folder)["storm.jpg"])
        let set = try TestSupport.album(["caption", String(storm.prefix(6)), "Storm over the dunes"], in: folder)
        XCTAssertEqual(set.status, 0, set.stderr)
        XCTAssert(set.stderr.contains("caption set to \"Storm over the dunes\" (run 2)"), set.stderr)
        let again = try TestSupport.album(["caption", storm, "Storm over the dunes"], in: folder)
        XCTAssert(again.stderr.contains("caption unchanged (run 3)"), again.stderr)

        let listed = try TestSupport.album(["ls", "--json", "--caption", "DUNES"], in: folder)
        XCTAssert(listed.stdout.contains(storm), listed.stdout)
        let show = try TestSupport.album(["show", storm, "--json"], in: folder)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(show.stdout.utf8)) as? [String: Any])
        XCTAssertEqual((object["photo"] as? [String: Any])?["caption"] as? String, "Storm over the dunes")
        let captions = try XCTUnwrap(object["history"] as? [[String: Any]]).filter { $0["stage"] as? String == "caption" }
        XCTAssertEqual(captions.map { "\($0["run"]!) \($0["job"]!) \($0["status"]!)" }, ["2 caption done", "3 caption skipped"])
        XCTAssertEqual((captions[0]["parameters"] as? [String: String])?["caption"], "Storm over the dunes")

        let runs = try TestSupport.album(["runs", "--json"], in: folder)
        let list = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(runs.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(list.map { "\($0["job"]!) \($0["status"]!)" }, ["caption ok", "caption ok", "album ok"])
        XCTAssert(list[0]["job_path"] is NSNull)

        let cleared = try TestSupport.album(["caption", storm, ""], in: folder)
        XCTAssert(cleared.stderr.contains("caption removed"), cleared.stderr)
        XCTAssertEqual(try TestSupport.album(["ls", "--json", "--caption", "dunes"], in: folder).stdout, "[]\n")
        XCTAssertEqual(try TestSupport.album(["caption", storm], in: folder).status, 2)
        XCTAssertEqual(try TestSupport.album(["caption", "nope", "text"], in: folder).status, 2)
    }

    func testRmForgetsPhotosAndTheirDerivedFilesButNeverOriginals() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let ids = try makeCatalogue(in: folder)
        let storm = try XCTUnwrap(ids["storm.jpg"]), dune = try XCTUnwrap(ids["dune.jpg"]), wood = try XCTUnwrap(ids["wood.jpg"])
        let stormFiles = try renditions(storm, in: folder).map(\.path)
        XCTAssertEqual(stormFiles.count, 4, "filtered, thumbnail, the original look's thumbnail (the report's before), export")
        XCTAssert(stormFiles.contains("\(folder)/out/storm.jpg"))
        let originals = try ["storm", "dune", "wood"].map { try TestSupport.hash("\(folder)/photos/\($0).jpg") }
        // An export the user changed is theirs now: rm keeps it.
        try TestSupport.write("my edit", to: "out/dune.jpg", in: folder)

        let rm = try TestSupport.album(["rm", String(storm.prefix(8)), dune], in: folder)
        XCTAssertEqual(rm.status, 0, rm.stderr)
        XCTAssert(rm.stdout.contains("removed \(storm.prefix(8)) \(folder)/photos/storm.jpg: 4 files deleted"), rm.stdout)
        XCTAssert(rm.stdout.contains("removed \(dune.prefix(8)) \(folder)/photos/dune.jpg: 1 file deleted"), rm.stdout)
        XCTAssert(rm.stderr.contains("kept \(folder)/out/dune.jpg: it changed since album exported it"), rm.stderr)
        for path in stormFiles { XCTAssertFalse(FileManager.default.fileExists(atPath: path), path) }
        XCTAssertEqual(try String(contentsOfFile: "\(folder)/out/dune.jpg", encoding: .utf8), "my edit")
        XCTAssertTrue(FileManager.default.fileExists(atPath: "\(folder)/out/wood.jpg"))
        XCTAssertEqual(try ["storm", "dune", "wood"].map { try TestSupport.hash("\(folder)/photos/\($0).jpg") }, originals)
        XCTAssertEqual(try self.ids(in: folder).values.sorted(), [wood])

        let catalogue = try Catalogue(folder: folder + "/album", create: false)
        let orphanSteps = try catalogue.database.query("SELECT COUNT(*) FROM steps WHERE photo IS NULL") { $0.int(0) ?? 0 }
        XCTAssertEqual(orphanSteps, [7], "the history stays, without the photos: 4 steps of storm, 3 of dune")
        catalogue.close()
        let verify = try TestSupport.album(["verify"], in: folder)
        XCTAssertEqual(verify.status, 0, verify.stdout + verify.stderr)

        let unknown = try TestSupport.album(["rm", wood, "0000"], in: folder)
        XCTAssertEqual(unknown.status, 2, "one bad id and nothing is removed")
        XCTAssertEqual(try self.ids(in: folder).values.sorted(), [wood])
    }

    func testVerifyNamesEveryDamagedOrMissingFileAndExitsOne() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let ids = try makeCatalogue(in: folder)
        let sound = try TestSupport.album(["verify"], in: folder)
        XCTAssertEqual(sound.status, 0, sound.stdout)
        XCTAssertEqual(sound.stdout, "")
        XCTAssert(sound.stderr.contains("catalogue \(folder)/album is sound"), sound.stderr)

        let storm = try XCTUnwrap(ids["storm.jpg"]), wood = try XCTUnwrap(ids["wood.jpg"])
        let thumbnail = try XCTUnwrap(try renditions(storm, in: folder).first { $0.kind == .thumbnail })
        var bytes = try Data(contentsOf: URL(fileURLWithPath: thumbnail.path))
        bytes[bytes.count / 2] ^= 0xFF  // same size, different bytes
        try bytes.write(to: URL(fileURLWithPath: thumbnail.path))
        let filtered = try XCTUnwrap(try renditions(wood, in: folder).first { $0.kind == .filtered })
        try Data("short".utf8).write(to: URL(fileURLWithPath: filtered.path))
        try FileManager.default.removeItem(atPath: "\(folder)/out/dune.jpg")
        try FileManager.default.removeItem(atPath: "\(folder)/photos/wood.jpg")
        try TestSupport.write("not a rendition", to: "album/thumbnails/zz/stray.jpg", in: folder)

        let result = try TestSupport.album(["verify"], in: folder)
        XCTAssertEqual(result.status, 1)
        let lines = Set(result.stdout.split(separator: "\n").map(String.init))
        XCTAssertEqual(lines, [
            "\(thumbnail.path): the thumbnail rendition's SHA-256 differs from the one recorded (photo \(storm.prefix(8)))",
            "\(filtered.path): the filtered rendition has 5 bytes, not the \(filtered.bytes) recorded (photo \(wood.prefix(8)))",
            "\(folder)/out/dune.jpg: the export rendition is missing (photo \(ids["dune.jpg"]!.prefix(8)))",
            "\(folder)/photos/wood.jpg: the original is missing (photo \(wood.prefix(8)))",
        ], "one line per problem; unreferenced files are gc's")
        XCTAssert(result.stderr.contains("4 problems in catalogue \(folder)/album"), result.stderr)
    }

    func testVerifyReportsADamagedDatabase() throws {
        let folder = try TestSupport.temporaryFolder(self)
        _ = try makeCatalogue(in: folder)
        let database = try Database(path: folder + "/album/" + Catalogue.databaseName)
        // A row whose photo is gone, as if foreign keys had been off when the photo was deleted.
        try database.execute("PRAGMA foreign_keys = OFF; UPDATE renditions SET photo = 'gone' WHERE kind = 'export' AND path LIKE '%/storm.jpg'")
        database.close()
        let result = try TestSupport.album(["verify"], in: folder)
        XCTAssertEqual(result.status, 1)
        XCTAssert(result.stdout.contains("\(folder)/album/catalogue.db: renditions row "), result.stdout)
        XCTAssert(result.stdout.contains("refers to a missing photos row"), result.stdout)
        XCTAssert(result.stdout.contains("\(folder)/out/storm.jpg: its photo gone is not in the catalogue"), result.stdout)
    }

    func testGcDeletesOnlyUnreferencedDerivedFilesAndTemporaryFilesInsideTheCatalogue() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let ids = try makeCatalogue(in: folder, mode: "copy")
        let catalogueFolder = folder + "/album"
        try TestSupport.write("old thumbnail", to: "album/thumbnails/zz/old.jpg", in: folder)
        try TestSupport.write("half written", to: "album/filtered/ab/.x.jpg.album-Ab12Cd", in: folder)
        try TestSupport.write("keep me", to: "album/notes.txt", in: folder)
        try TestSupport.write("outside", to: "elsewhere/.y.jpg.album-Zz99Yy", in: folder)
        try FileManager.default.createSymbolicLink(atPath: catalogueFolder + "/thumbnails/link", withDestinationPath: folder + "/elsewhere")
        let everything = try allFiles(under: folder)

        let dry = try TestSupport.album(["gc", "--dry-run"], in: folder)
        XCTAssertEqual(dry.status, 0, dry.stderr)
        XCTAssertEqual(dry.stdout, """
            would remove filtered/ab/.x.jpg.album-Ab12Cd (an unfinished temporary file)
            would remove thumbnails/zz/old.jpg (no row refers to it)

            """)
        XCTAssertEqual(try allFiles(under: folder), everything, "a dry run deletes nothing")

        let gc = try TestSupport.album(["gc"], in: folder)
        XCTAssertEqual(gc.status, 0, gc.stderr)
        XCTAssert(gc.stdout.contains("removed thumbnails/zz/old.jpg (no row refers to it)"), gc.stdout)
        XCTAssert(gc.stderr.contains("removed 2 files, 25 bytes"), gc.stderr)
        XCTAssertEqual(try allFiles(under: folder), everything.subtracting(["album/thumbnails/zz/old.jpg", "album/filtered/ab/.x.jpg.album-Ab12Cd"]))
        XCTAssertFalse(FileManager.default.fileExists(atPath: catalogueFolder + "/thumbnails/zz"), "an emptied shard folder goes")
        XCTAssertEqual(try TestSupport.album(["verify"], in: folder).status, 0)
        let rerun = try TestSupport.album(["run", "job.yml", "--verbose"], in: folder)
        XCTAssertFalse(rerun.stderr.contains(" done: "), "gc removed nothing a step needs: \(rerun.stderr)")

        // After rm, the catalogue's copy of the original stays until gc: no row needs it any more.
        let storm = try XCTUnwrap(ids["storm.jpg"])
        XCTAssertEqual(try TestSupport.album(["rm", storm], in: folder).status, 0)
        let copies = try allFiles(under: catalogueFolder + "/originals")
        XCTAssertEqual(copies.count, 3, "rm leaves copies of originals alone")
        let after = try TestSupport.album(["gc"], in: folder)
        XCTAssertEqual(after.stdout.split(separator: "\n").count, 1, after.stdout)
        XCTAssert(after.stdout.hasPrefix("removed originals/"), after.stdout)
        XCTAssertEqual(try allFiles(under: catalogueFolder + "/originals").count, 2)
        XCTAssertEqual(try TestSupport.album(["verify"], in: folder).status, 0)
    }

    func testWritingCommandsStopWhileAnotherAlbumHoldsTheCatalogue() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let storm = try XCTUnwrap(try makeCatalogue(in: folder)["storm.jpg"])
        let holder = try Catalogue(folder: folder + "/album", create: false, writing: true)
        defer { holder.close() }
        for arguments in [["caption", storm, "x"], ["rm", storm], ["gc"], ["verify"]] {
            let result = try TestSupport.album(arguments, in: folder)
            XCTAssertEqual(result.status, 3, arguments.joined(separator: " "))
            XCTAssert(result.stderr.contains("is in use by album pid \(getpid()) since"), result.stderr)
        }
        for arguments in [["ls"], ["show", storm], ["runs"]] {
            XCTAssertEqual(try TestSupport.album(arguments, in: folder).status, 0, arguments.joined(separator: " "))
        }
    }

    /// Every file and link under `root`, relative to it (links are not followed).
    func allFiles(under root: String) throws -> Set<String> {
        var found = Set<String>()
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let path = enumerator?.nextObject() as? String {
            var info = stat()
            if lstat(root + "/" + path, &info) == 0, (info.st_mode & S_IFMT) != S_IFDIR { found.insert(path) }
        }
        return found
    }
}
