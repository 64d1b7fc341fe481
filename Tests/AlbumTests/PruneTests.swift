import Foundation
import XCTest
@testable import Core
@testable import Catalogue
@testable import Media
@testable import Stages

/// `album prune` through the built binary, on generated photos and a real SQLite file: it forgets missing photos and
/// superseded versions, deletes renditions no current look or parameter set would produce, keeps what it is told to
/// (and what it cannot prove old, and an unmounted share's photos), never deletes another catalogue's export, and
/// thins history. Every expectation is read back with the sqlite3 shell, sha256sum or the file system, not album.
final class PruneTests: XCTestCase, DrivesAlbum {
    /// A job over `photos/`: a look (`LOOK`), a thumbnail (`SIZE`, 64x64 by default) and an export to `out/`.
    static let job = """
        version: 1
        catalogue: album
        stages:
          - import: {from: photos}
          - filter: {preset: "${LOOK}", keep: full-size}
          - thumbnail: {size: "${SIZE}"}
          - export: {to: "out/{name}.jpg"}
        """

    /// A folder with `count` generated photos (`photos/p1.jpg`, …) and the job.
    func makeLibrary(photos count: Int = 3) throws -> String {
        let folder = try TestSupport.temporaryFolder(self)
        for index in 1...count { try Fixture.jpeg(at: "\(folder)/photos/p\(index).jpg", width: 96, height: 64, variant: index) }
        try TestSupport.write(PruneTests.job, to: "job.yml", in: folder)
        return folder
    }

    func run(_ folder: String, look: String = "none", size: String = "64x64", file: StaticString = #filePath, line: UInt = #line) throws {
        try album(["run", "job.yml", "--set", "LOOK=\(look)", "--set", "SIZE=\(size)"], in: folder, file: file, line: line)
    }

    func rows(_ folder: String, _ sql: String) throws -> [String] { try Probe.rows(folder + "/album", sql) }

    /// The regular files under `folder/sub`, relative to `folder`, sorted (none when it does not exist).
    func files(_ folder: String, under sub: String) -> [String] {
        guard let names = FileManager.default.enumerator(atPath: folder + "/" + sub) else { return [] }
        return names.compactMap { $0 as? String }.filter { name in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: "\(folder)/\(sub)/\(name)", isDirectory: &isFolder) && !isFolder.boolValue
        }.map { "\(sub)/\($0)" }.sorted()
    }

    /// `album plan`'s "to do" column, per stage.
    func planToDo(_ folder: String, look: String = "none", file: StaticString = #filePath, line: UInt = #line) throws -> [Int] {
        let plan = try album(["plan", "job.yml", "--set", "LOOK=\(look)", "--set", "SIZE=64x64"], in: folder, file: file, line: line)
        return plan.stdout.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count == 4, StageRegistry.stepNames.map(\.rawValue).contains(String(fields[0])) else { return nil }
            return Int(fields[1])
        }
    }

    /// Every file under `folder` with its size, and the database's SHA-256: what a dry run must leave as it was (a
    /// reader may leave SQLite's `-shm` and an empty `-wal`, never a changed database).
    func snapshot(_ folder: String) throws -> [String] {
        try Tool.listingBesideAReadersLog(folder) + ["catalogue.db " + Tool.sha256(folder + "/album/catalogue.db")]
    }

    // MARK: - Edited and deleted originals

    func testEditedAndDeletedOriginalsAreForgottenAndVerifyThenPasses() throws {
        let folder = try makeLibrary()
        try run(folder)
        try Fixture.jpeg(at: "\(folder)/photos/p1.jpg", width: 96, height: 64, variant: 40)  // edited: new bytes
        try FileManager.default.removeItem(atPath: "\(folder)/photos/p2.jpg")                  // deleted
        try run(folder)
        XCTAssertEqual(try rows(folder, "SELECT count(*) FROM photos"), ["4"], "p1's two versions, p2 and p3")
        XCTAssertEqual(files(folder, under: "album/thumbnails").count, 4)

        let before = try snapshot(folder)
        let dry = try album(["prune", "--dry-run"], in: folder)
        XCTAssertEqual(try snapshot(folder), before, "a dry run changes no byte of the database and no file")
        XCTAssert(dry.stdout.contains("would forget") && dry.stdout.contains("photos/p2.jpg (missing)"), dry.stdout)
        XCTAssert(dry.stdout.contains("photos/p1.jpg (superseded)"), dry.stdout)
        XCTAssert(dry.stderr.contains("prune would forget 2 photos (1 missing, 1 superseded)"), dry.stderr)

        let pruned = try album(["prune"], in: folder)
        XCTAssert(pruned.stderr.contains("prune forgot 2 photos (1 missing, 1 superseded)"), pruned.stderr)
        XCTAssertEqual(try rows(folder, "SELECT path FROM photos ORDER BY path"), ["../photos/p1.jpg", "../photos/p3.jpg"])
        XCTAssertEqual(try rows(folder, "SELECT count(*) FROM photos WHERE replaces IS NOT NULL"), ["0"],
                       "the current p1 replaced a version that is forgotten: its link is NULL")
        XCTAssertEqual(try rows(folder, "SELECT count(*) FROM renditions WHERE photo NOT IN (SELECT id FROM photos)"), ["0"])
        XCTAssertEqual(files(folder, under: "album/thumbnails").count, 2, "the forgotten photos' thumbnails are deleted")
        XCTAssertEqual(files(folder, under: "out"), ["out/p1.jpg", "out/p3.jpg"], "p2's export is deleted, the others stay")
        let freed = try XCTUnwrap(pruned.stderr.range(of: #"deleted \d+ files, \d+ bytes"#, options: .regularExpression))
        XCTAssertNotEqual(pruned.stderr[freed], "deleted 0 files, 0 bytes", pruned.stderr)
        try album(["verify"], in: folder)
        XCTAssertEqual(try planToDo(folder), [0, 0, 0, 0])
    }

    func testJSONSaysWhatWasForgottenAndFreed() throws {
        let folder = try makeLibrary(photos: 2)
        try run(folder)
        try FileManager.default.removeItem(atPath: "\(folder)/photos/p2.jpg")
        let result = try album(["prune", "--json"], in: folder)
        let summary = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], result.stdout)
        XCTAssertEqual(summary["dry_run"] as? Bool, false)
        let photos = try XCTUnwrap(summary["photos"] as? [String: Any])
        let forgotten = try XCTUnwrap(photos["forgotten"] as? [[String: Any]])
        XCTAssertEqual(forgotten.map { $0["state"] as? String }, ["missing"])
        XCTAssertEqual(forgotten.first?["path"] as? String, "\(folder)/photos/p2.jpg")
        let files = try XCTUnwrap(summary["files"] as? [String: Any])
        XCTAssertEqual(files["deleted"] as? Int, 2, "p2's thumbnail and export")
        let thumbnail = try rows(folder, "SELECT count(*) FROM renditions")
        XCTAssertEqual(thumbnail, ["2"], "p1's thumbnail and export stay")
        XCTAssertGreaterThan(files["bytes"] as? Int ?? 0, 0)
        XCTAssertEqual(summary["history_rows"] as? Int, 0)
    }

    // MARK: - Keeping

    func testKeepMissingKeepsAndMarksThemAndLaterPrunesKeepThemToo() throws {
        let folder = try makeLibrary(photos: 2)
        try run(folder)
        try FileManager.default.removeItem(atPath: "\(folder)/photos/p2.jpg")
        let kept = try album(["prune", "--keep-missing"], in: folder)
        XCTAssert(kept.stderr.contains("kept 1 missing photo (--keep-missing"), kept.stderr)
        XCTAssertEqual(try rows(folder, "SELECT path, missing_kept IS NOT NULL FROM photos ORDER BY path"),
                       ["../photos/p1.jpg|0", "../photos/p2.jpg|1"])
        XCTAssertEqual(files(folder, under: "out"), ["out/p1.jpg", "out/p2.jpg"], "a kept photo keeps its files")
        try album(["prune"], in: folder)
        XCTAssertEqual(try rows(folder, "SELECT count(*) FROM photos"), ["2"], "the choice is kept: album rm forgets it")

        // The original comes back: the mark goes.
        try Fixture.jpeg(at: "\(folder)/photos/p2.jpg", width: 96, height: 64, variant: 2)
        try album(["prune"], in: folder)
        XCTAssertEqual(try rows(folder, "SELECT count(*) FROM photos WHERE missing_kept IS NOT NULL"), ["0"])
    }

    func testKeepVersionsKeepsTheNewestSupersededVersions() throws {
        let folder = try makeLibrary(photos: 1)
        try run(folder)
        for variant in [50, 60] {
            try Fixture.jpeg(at: "\(folder)/photos/p1.jpg", width: 96, height: 64, variant: variant)
            try run(folder)
        }
        let ids = try rows(folder, "SELECT id FROM photos ORDER BY rowid")  // oldest first
        XCTAssertEqual(ids.count, 3)
        try album(["prune", "--keep-versions", "1"], in: folder)
        XCTAssertEqual(try rows(folder, "SELECT id, coalesce(replaces, '-') FROM photos ORDER BY rowid"),
                       ["\(ids[1])|-", "\(ids[2])|\(ids[1])"],
                       "the newest superseded version stays; the one it replaced is forgotten, and its link with it")
        XCTAssertEqual(files(folder, under: "album/thumbnails").count, 2)
        try album(["prune"], in: folder)
        XCTAssertEqual(try rows(folder, "SELECT id FROM photos"), [ids[2]])
        try album(["verify"], in: folder)
        try album(["prune", "--keep-versions", "x"], in: folder, status: 2)
        try album(["prune", "--keep-missing", "--forget-unreachable"], in: folder, status: 2)
    }

    // MARK: - Old looks and old parameters

    func testAfterThreeLookSwitchesOnlyTheCurrentLooksFilesRemain() throws {
        let folder = try makeLibrary()
        for look in ["noir", "vivid", "sepia"] { try run(folder, look: look) }
        XCTAssertEqual(files(folder, under: "album/filtered").count, 9, "three looks of three photos")
        XCTAssertEqual(files(folder, under: "album/thumbnails").count, 12, "three looks' and the original look's (the before)")
        let pruned = try album(["prune"], in: folder)
        XCTAssert(pruned.stdout.contains("(an earlier look)"), pruned.stdout)
        let filtered = files(folder, under: "album/filtered"), thumbnails = files(folder, under: "album/thumbnails")
        XCTAssertEqual(filtered.count, 3)
        XCTAssertEqual(thumbnails.count, 6, "sepia's, and the before of each photo")
        XCTAssertEqual(files(folder, under: "out"), ["out/p1.jpg", "out/p2.jpg", "out/p3.jpg"])
        // What is left is what the catalogue records: the sepia look's, and the original look's befores.
        XCTAssertEqual(try rows(folder, "SELECT path FROM renditions WHERE kind != 'export' ORDER BY path"), (filtered + thumbnails).map {
            String($0.dropFirst("album/".count))
        }.sorted())
        XCTAssertEqual(try rows(folder, "SELECT DISTINCT filter FROM photos"), ["sepia"])
        let sepiaHash = try rows(folder, "SELECT DISTINCT params_hash FROM renditions WHERE kind = 'filtered'")
        XCTAssertEqual(sepiaHash.count, 1)
        let stages = try rows(folder, "SELECT stages FROM runs ORDER BY id DESC LIMIT 1").joined()
        XCTAssert(stages.contains(sepiaHash[0]), "the newest run's recorded filter parameters made them: \(stages)")
        try album(["verify"], in: folder)
        XCTAssertEqual(try planToDo(folder, look: "sepia"), [0, 0, 0, 0])
    }

    func testRunsRecordEachStageTheyApplyWithTheHashItsRenditionsCarry() throws {
        let folder = try makeLibrary(photos: 1)
        try run(folder, look: "noir")
        let text = try rows(folder, "SELECT stages FROM runs").joined()
        let stages = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: String]], text)
        // A stage with options scoped to some formats (`raw:` for camera RAWs, `embedded-thumbnail:` for HEIF) records
        // one hash per variant, the one for every other photo first.
        XCTAssertEqual(stages.map { $0["stage"] }, ["import", "filter", "filter", "thumbnail", "thumbnail", "thumbnail",
                                                   "export", "export", "export"])
        for kind in ["filtered", "thumbnail", "export"] {
            let stage = kind == "filtered" ? "filter" : kind
            XCTAssertEqual(try rows(folder, "SELECT DISTINCT params_hash FROM renditions WHERE kind = '\(kind)'"),
                           [try XCTUnwrap(stages.first { $0["stage"] == stage }?["params_hash"])], kind)
        }
        XCTAssertEqual(stages.first { $0["stage"] == "filter" }?["look"], try rows(folder, "SELECT filter_recipe FROM photos").first)
    }

    func testRunsWithoutRecordedStagesKeepWhatTheyCannotProveOld() throws {
        let folder = try makeLibrary(photos: 2)
        try run(folder, size: "64x64")
        try run(folder, size: "48x48")
        XCTAssertEqual(files(folder, under: "album/thumbnails").count, 4)
        // As an album before schema version 5 left them: no run says which stages it applied.
        _ = try Tool.sqlite(folder + "/album/catalogue.db", "UPDATE runs SET stages = NULL", writing: true)
        let kept = try album(["prune"], in: folder)
        XCTAssertEqual(files(folder, under: "album/thumbnails").count, 4, "the 64×64 thumbnails cannot be proved old")
        XCTAssert(kept.stderr.contains("kept renditions only the parameters of job "), kept.stderr)
        try run(folder, size: "48x48")  // this run records its stages
        let pruned = try album(["prune"], in: folder)
        XCTAssertEqual(files(folder, under: "album/thumbnails").count, 2, pruned.stdout + pruned.stderr)
        XCTAssert(pruned.stdout.contains("(parameters no job applies now)"), pruned.stdout)
        XCTAssertFalse(pruned.stderr.contains("could prove old"), pruned.stderr)
        try album(["verify"], in: folder)
    }

    func testTheLookHashIsTheStagesOwn() throws {
        let photo = PhotoRecord(id: "x", hash: String(repeating: "ab", count: 32), path: "/p.jpg", bytes: 1, mtimeNanoseconds: 0,
                                inode: 0, width: 1, height: 1, format: "jpeg", taken: nil, added: "", caption: nil, filter: "none",
                                filterRecipe: "[]", camera: nil, orientation: 1, hasGPS: false, replaces: nil, storedPath: nil)
        XCTAssertEqual(photo.lookHash, photo.hash, "the original look is the original's hash")
        let recipes = [Recipe.original, Recipe([Sepia()]), Recipe([Noir()]), Recipe([Vivid(), Vignette()])]
        for recipe in recipes {
            var recorded = photo
            recorded.filterRecipe = recipe.canonical.text  // as the filter stage records it
            XCTAssertEqual(recorded.lookHash, PhotoWork(photo: photo, recipe: recipe).lookHash, recorded.filterRecipe)
        }
        XCTAssertEqual(Set(recipes.map { PhotoWork(photo: photo, recipe: $0).lookHash }).count, recipes.count)
    }

    // MARK: - Safety

    func testMissingPhotosUnderAFolderThatIsGoneOrEmptyAreKeptUnlessTold() throws {
        let folder = try TestSupport.temporaryFolder(self)
        for index in 1...2 { try Fixture.jpeg(at: "\(folder)/nas/library/p\(index).jpg", width: 96, height: 64, variant: index) }
        try TestSupport.write("not a photo", to: "nas/README", in: folder)
        try TestSupport.write(PruneTests.job.replacingOccurrences(of: "from: photos", with: "from: nas/library"), to: "job.yml", in: folder)
        try run(folder)
        try FileManager.default.moveItem(atPath: "\(folder)/nas/library", toPath: "\(folder)/elsewhere")
        let gone = try album(["prune"], in: folder)
        XCTAssert(gone.stderr.contains("kept 2 missing photos under \(folder)/nas/library, which is not there: is it mounted? "
                                       + "album relocate if it moved; --forget-unreachable to forget them"), gone.stderr)
        XCTAssertEqual(try rows(folder, "SELECT count(*) FROM photos"), ["2"])
        XCTAssertEqual(files(folder, under: "album/thumbnails").count, 2)

        try FileManager.default.createDirectory(atPath: "\(folder)/nas/library", withIntermediateDirectories: false)  // the mount point
        let empty = try album(["prune", "--json"], in: folder)
        XCTAssert(empty.stderr.contains("under \(folder)/nas/library, which is empty: is it mounted?"), empty.stderr)
        XCTAssert(empty.stdout.contains("\"why\": \"empty\""), empty.stdout)
        XCTAssertEqual(try rows(folder, "SELECT count(*) FROM photos"), ["2"])

        try album(["prune", "--forget-unreachable"], in: folder)
        XCTAssertEqual(try rows(folder, "SELECT count(*) FROM photos"), ["0"])
        XCTAssertEqual(files(folder, under: "album/thumbnails"), [])
        try album(["verify"], in: folder)
    }

    func testAnotherCataloguesExportInASharedFolderIsNeverDeleted() throws {
        let folder = try TestSupport.temporaryFolder(self)
        for (index, name) in ["a", "b", "c"].enumerated() {
            try Fixture.jpeg(at: "\(folder)/mine/\(name).jpg", width: 96, height: 64, variant: index + 1)
        }
        try Fixture.jpeg(at: "\(folder)/theirs/a.jpg", width: 96, height: 64, variant: 70)
        func job(_ catalogue: String, from: String, ifExists: String) -> String {
            "version: 1\ncatalogue: \(catalogue)\nstages:\n  - import: {from: \(from)}\n"
                + "  - export: {to: \"shared/{name}.jpg\", if-exists: \(ifExists)}\n"
        }
        try TestSupport.write(job("album", from: "mine", ifExists: "skip"), to: "mine.yml", in: folder)
        try TestSupport.write(job("theirs-album", from: "theirs", ifExists: "overwrite"), to: "theirs.yml", in: folder)
        try album(["run", "mine.yml"], in: folder)
        try album(["run", "theirs.yml"], in: folder)  // replaces shared/a.jpg with its own, as asked
        let theirs = try Tool.sha256("\(folder)/shared/a.jpg")

        try FileManager.default.removeItem(atPath: "\(folder)/mine/a.jpg")
        try FileManager.default.removeItem(atPath: "\(folder)/mine/b.jpg")
        let pruned = try album(["prune"], in: folder)
        XCTAssert(pruned.stderr.contains("kept \(folder)/shared/a.jpg: another catalogue exported it (id "), pruned.stderr)
        XCTAssertEqual(try Tool.sha256("\(folder)/shared/a.jpg"), theirs, "the other catalogue's export is untouched")
        XCTAssertEqual(files(folder, under: "shared"), ["shared/a.jpg", "shared/c.jpg"], "this catalogue's own b.jpg is deleted")
        try album(["verify"], in: folder)
        try album(["verify", "--catalogue", "theirs-album"], in: folder)
    }

    func testAPhotoWhoseOriginalTheCatalogueCopiedIsKept() throws {
        let folder = try makeLibrary(photos: 2)
        try TestSupport.write(PruneTests.job.replacingOccurrences(of: "{from: photos}", with: "{from: photos, mode: copy}"),
                              to: "job.yml", in: folder)
        try run(folder)
        try FileManager.default.removeItem(atPath: "\(folder)/photos/p2.jpg")
        let result = try album(["prune"], in: folder)
        XCTAssert(result.stderr.contains("kept 1 missing photo whose original the catalogue keeps a copy of (mode: copy)"), result.stderr)
        XCTAssertEqual(try rows(folder, "SELECT count(*) FROM photos"), ["2"], "forgetting it would let gc delete the only copy")
        XCTAssertEqual(files(folder, under: "album/originals").count, 2)
    }

    func testAFileThatCannotBeDeletedMakesTheExitStatusOne() throws {
        let folder = try makeLibrary(photos: 2)
        try run(folder)
        try FileManager.default.removeItem(atPath: "\(folder)/photos/p2.jpg")
        // An immutable file (chattr +i) cannot be unlinked, even by root.
        guard try Tool.run(["chattr", "+i", "\(folder)/out/p2.jpg"]).status == 0 else {
            throw XCTSkip("chattr +i is not available on this file system")
        }
        defer { _ = try? Tool.run(["chattr", "-i", "\(folder)/out/p2.jpg"]) }
        let result = try album(["prune"], in: folder, status: 1)
        XCTAssert(result.stderr.contains("album: error: cannot delete \(folder)/out/p2.jpg: "), result.stderr)
        XCTAssertEqual(try rows(folder, "SELECT path FROM photos"), ["../photos/p1.jpg"], "the rows went first")
        XCTAssertEqual(files(folder, under: "album/thumbnails").count, 1, "the other files were deleted")
    }

    // MARK: - History

    func testHistoryKeepsTheLastRunsSkippedRowsAndEveryDoneAndFailedRow() throws {
        let folder = try makeLibrary(photos: 2)
        for _ in 1...4 { try run(folder, look: "sepia") }
        let database = folder + "/album/catalogue.db"
        // The skipped rows an album before issue 16 wrote for every no-op rerun (written here, whether or not this
        // album writes them), and one failure in run 2.
        _ = try Tool.sqlite(database, """
            INSERT INTO steps (run, photo, path, stage, params, ms, status, error)
              SELECT r.id, s.photo, s.path, s.stage, s.params, 0, 'skipped', 'up to date' FROM steps s JOIN runs r ON r.id > s.run
              WHERE s.run = 1 AND s.status = 'done'
                AND NOT EXISTS (SELECT 1 FROM steps t WHERE t.run = r.id AND t.photo = s.photo AND t.stage = s.stage);
            INSERT INTO steps (run, photo, path, stage, params, ms, status, error)
              SELECT 2, photo, path, 'thumbnail', params, 0, 'failed', 'disk full' FROM steps WHERE run = 1 AND stage = 'thumbnail' LIMIT 1;
            """, writing: true)
        let counts = "SELECT status, run, count(*) FROM steps GROUP BY status, run ORDER BY status, run"
        XCTAssertEqual(try rows(folder, counts), ["done|1|8", "failed|2|1", "skipped|2|8", "skipped|3|8", "skipped|4|8"])

        let dry = try album(["prune", "--history", "2", "--dry-run"], in: folder)
        XCTAssert(dry.stderr.contains("remove 8 history rows"), dry.stderr)
        try album(["prune", "--history", "2"], in: folder)
        XCTAssertEqual(try rows(folder, counts), ["done|1|8", "failed|2|1", "skipped|3|8", "skipped|4|8"])
        try album(["prune", "--history", "0"], in: folder)
        XCTAssertEqual(try rows(folder, counts), ["done|1|8", "failed|2|1"], "done and failed rows are always kept")
        try album(["prune", "--history", "-1"], in: folder, status: 2)
    }
}
