import Foundation
import XCTest
import SQLite
@testable import Core
@testable import Catalogue
@testable import Stages

/// A relocatable catalogue (docs/catalogue.md, "Moving a catalogue"), through the built binary on generated photos:
/// moving the catalogue alone, moving the library with its catalogue inside, `album relocate` after moving only the
/// originals, and a catalogue written at schema version 2 carried forward. Each ends with a rerun that does nothing,
/// `album verify` exit 0 and `album plan` 0 to do.
final class RelocationTests: XCTestCase {
    /// Three photos under `library/photos`, and a job with every stage whose catalogue and library are variables.
    func makeLibrary(_ library: String, jobIn jobs: String, catalogue: String = "${CATALOGUE}",
                     export: String = "${OUT}/{name}.jpg") throws -> String {
        try Fixture.jpeg(at: "\(library)/photos/storm.jpg", taken: "2008:04:20 19:12:06")
        try Fixture.jpeg(at: "\(library)/photos/wood.jpg", taken: "2008:04:19 13:43:16")
        try Fixture.jpeg(at: "\(library)/photos/dune.jpg", width: 200, height: 300)
        return try TestSupport.write("""
            version: 1
            name: relocatable
            catalogue: "\(catalogue)"
            stages:
              - import: {from: "${LIBRARY}/photos"}
              - filter: {preset: sepia, keep: full-size, select: {taken: 2008-04-01..2008-04-30}}
              - thumbnail: {size: 120x120}
              - export: {to: "\(export)"}
            """, to: "job.yml", in: jobs)
    }

    /// Runs `album ARGUMENTS` and checks its exit status.
    @discardableResult
    func album(_ arguments: [String], status: Int32 = 0, in folder: String? = nil) throws -> (status: Int32, stdout: String, stderr: String) {
        let result = try TestSupport.album(arguments, in: folder)
        XCTAssertEqual(result.status, status, "album \(arguments.joined(separator: " ")):\n\(result.stdout)\n\(result.stderr)")
        return result
    }

    /// The steps of the catalogue's newest run, per stage and status.
    func lastRunSteps(_ catalogue: String) throws -> [StageName: [StepRecord.Status: Int]] {
        let opened = try CatalogueReader(folder: catalogue)
        defer { opened.close() }
        return try opened.stepCounts(run: try XCTUnwrap(opened.runs().first).id)
    }

    /// What the catalogue stores, as the database holds it: `table`'s paths, sorted.
    func storedPaths(_ table: String, in catalogue: String) throws -> [String] {
        let database = try Database(path: catalogue + "/catalogue.db")
        defer { database.close() }
        return try database.query("SELECT path FROM \(table) ORDER BY path") { try $0["path"] as String }
    }

    /// A rerun does nothing (every step skipped), `album verify` exits 0, and `album plan` has 0 to do at every stage.
    func assertNothingToRedo(_ run: [String], catalogue: String, file: StaticString = #filePath, line: UInt = #line) throws {
        try album(run)
        let steps = try lastRunSteps(catalogue)
        XCTAssertEqual(Set(steps.keys), [.import, .filter, .thumbnail, .export], "\(steps)", file: file, line: line)
        for (stage, byStatus) in steps {
            XCTAssertEqual(byStatus.filter { $0.key != .skipped }, [:], "\(stage) redid work: \(byStatus)", file: file, line: line)
        }
        try album(["verify", "--catalogue", catalogue])
        var planArguments = run
        planArguments[0] = "plan"
        let plan = try album(planArguments)
        let rows = plan.stdout.split(separator: "\n").compactMap { line -> (String, Int)? in
            let fields = line.split(separator: " ")
            guard fields.count == 4, StageRegistry.stepNames.map(\.rawValue).contains(String(fields[0])), let toDo = Int(fields[1]) else { return nil }
            return (String(fields[0]), toDo)
        }
        XCTAssertEqual(rows.map(\.0), ["import", "filter", "thumbnail", "export"], plan.stdout, file: file, line: line)
        XCTAssertEqual(rows.map(\.1), [0, 0, 0, 0], plan.stdout, file: file, line: line)
    }

    func testMovingTheCatalogueAloneRedoesNothing() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let job = try makeLibrary("\(folder)/library", jobIn: "\(folder)/jobs")
        func run(_ catalogue: String) -> [String] {
            ["run", job, "--set", "CATALOGUE=\(catalogue)", "--set", "LIBRARY=\(folder)/library", "--set", "OUT=\(folder)/site"]
        }
        try album(run("\(folder)/jobs/album"))
        // The catalogue's parent is jobs/: the originals and exports elsewhere stay absolute, its renditions relative.
        XCTAssert(try storedPaths("photos", in: "\(folder)/jobs/album").allSatisfy { $0.hasPrefix("\(folder)/library/photos/") })
        let renditions = try storedPaths("renditions", in: "\(folder)/jobs/album")
        XCTAssertEqual(renditions.filter { $0.hasPrefix("/") }, ["dune", "storm", "wood"].map { "\(folder)/site/\($0).jpg" })
        XCTAssertEqual(renditions.filter { !$0.hasPrefix("/") }.map { $0.split(separator: "/")[0] },
                       ["filtered", "filtered", "thumbnails", "thumbnails", "thumbnails", "thumbnails", "thumbnails"],
                       "three thumbnails, and the original look's of the two filtered photos (their reports' before)")

        try FileManager.default.createDirectory(atPath: "\(folder)/elsewhere", withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: "\(folder)/jobs/album", toPath: "\(folder)/elsewhere/album")
        try album(["verify", "--catalogue", "\(folder)/elsewhere/album"])
        let listed = try album(["ls", "--json", "--catalogue", "\(folder)/elsewhere/album"])
        XCTAssert(listed.stdout.contains("\"\(folder)/library/photos/storm.jpg\""), listed.stdout)
        try assertNothingToRedo(run("\(folder)/elsewhere/album"), catalogue: "\(folder)/elsewhere/album")
    }

    func testMovingTheLibraryWithItsCatalogueRedoesNothing() throws {
        let folder = try TestSupport.temporaryFolder(self)
        // The common layout: the job, its catalogue (.album) and its exports all inside the library.
        _ = try makeLibrary("\(folder)/library", jobIn: "\(folder)/library", catalogue: ".album", export: "site/{name}.jpg")
        try album(["run", "job.yml", "--set", "LIBRARY=."], in: "\(folder)/library")
        XCTAssertEqual(try storedPaths("photos", in: "\(folder)/library/.album"), ["dune", "storm", "wood"].map { "../photos/\($0).jpg" })
        XCTAssertEqual(try storedPaths("renditions", in: "\(folder)/library/.album").filter { $0.hasPrefix("../") },
                       ["dune", "storm", "wood"].map { "../site/\($0).jpg" })
        XCTAssertEqual(try storedPaths("renditions", in: "\(folder)/library/.album").filter { $0.hasPrefix("/") }, [])

        try FileManager.default.moveItem(atPath: "\(folder)/library", toPath: "\(folder)/moved")
        let show = try album(["ls", "--json", "--catalogue", "\(folder)/moved/.album"])
        XCTAssert(show.stdout.contains("\"\(folder)/moved/photos/wood.jpg\""), "paths users see are absolute, from where it is now: \(show.stdout)")
        try assertNothingToRedo(["run", "\(folder)/moved/job.yml", "--set", "LIBRARY=\(folder)/moved"], catalogue: "\(folder)/moved/.album")
        XCTAssert(FileManager.default.fileExists(atPath: "\(folder)/moved/site/storm.jpg"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: "\(folder)/library"), "nothing was written where the library was")
    }

    func testRelocateRewritesTheOriginalsThatMovedElsewhere() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let job = try makeLibrary("\(folder)/nas/library", jobIn: "\(folder)/jobs")
        func run(_ library: String) -> [String] {
            ["run", job, "--set", "CATALOGUE=\(folder)/jobs/album", "--set", "LIBRARY=\(library)", "--set", "OUT=\(folder)/site"]
        }
        let catalogue = "\(folder)/jobs/album"
        try album(run("\(folder)/nas/library"))
        try FileManager.default.createDirectory(atPath: "\(folder)/disk", withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: "\(folder)/nas/library", toPath: "\(folder)/disk/library")
        let broken = try album(["verify", "--catalogue", catalogue], status: 1)
        XCTAssert(broken.stdout.contains("\(folder)/nas/library/photos/storm.jpg"), broken.stdout)

        let dry = try album(["relocate", "--catalogue", catalogue, "--from", "\(folder)/nas", "--to", "\(folder)/disk", "--dry-run", "--json"])
        let planned = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(dry.stdout.utf8)) as? [String: Any])
        let paths = try XCTUnwrap(planned["paths"] as? [[String: Any]], dry.stdout)
        XCTAssertEqual(paths.map { "\($0["kind"]!) \($0["found"]!)" }, Array(repeating: "original 1", count: 3))
        XCTAssertEqual(Set(paths.compactMap { $0["to"] as? String }), Set(["dune", "storm", "wood"].map { "\(folder)/disk/library/photos/\($0).jpg" }))
        XCTAssert(planned["run"] is NSNull, dry.stdout)
        try album(["verify", "--catalogue", catalogue], status: 1)  // the dry run changed nothing

        let done = try album(["relocate", "--catalogue", catalogue, "--from", "\(folder)/nas/", "--to", "\(folder)/disk"])
        XCTAssert(done.stderr.contains("rewrote 3 originals and 0 renditions from \(folder)/nas to \(folder)/disk (run 2)"), done.stderr)
        XCTAssertEqual(done.stdout.split(separator: "\n").count, 3, done.stdout)
        try album(["verify", "--catalogue", catalogue])
        XCTAssert(try storedPaths("photos", in: catalogue).allSatisfy { $0.hasPrefix("\(folder)/disk/library/photos/") })
        let runs = try album(["runs", "--json", "--catalogue", catalogue]).stdout
        let newest = try XCTUnwrap((JSONSerialization.jsonObject(with: Data(runs.utf8)) as? [[String: Any]])?.first, runs)
        XCTAssertEqual(newest["job"] as? String, "relocate")
        XCTAssertEqual(((newest["counts"] as? [String: Any])?["relocate"] as? [String: Int])?["done"], 3, runs)
        try assertNothingToRedo(run("\(folder)/disk/library"), catalogue: catalogue)

        // Nothing left under the old prefix: a second relocate rewrites nothing and records no run.
        let again = try album(["relocate", "--catalogue", catalogue, "--from", "\(folder)/nas", "--to", "\(folder)/disk"])
        XCTAssert(again.stderr.contains("rewrote 0 originals and 0 renditions"), again.stderr)
        // A NEW where the files are not: rewritten all the same, and exit 1 naming one.
        let wrong = try album(["relocate", "--catalogue", catalogue, "--from", "\(folder)/disk", "--to", "\(folder)/nowhere"], status: 1)
        XCTAssert(wrong.stderr.contains("3 of the rewritten paths have no file at their new place"), wrong.stderr)
        try album(["relocate", "--catalogue", catalogue, "--from", "\(folder)/disk", "--to", "\(folder)/disk"], status: 2)
        try album(["relocate", "--catalogue", catalogue, "--to", "\(folder)/disk"], status: 2)
    }

    /// A catalogue written at schema version 2 stored every path absolute: made here by a run over `folder/library`
    /// (its catalogue `.album` inside) and a photo from `folder/outside`, then turned back into what version 2 wrote
    /// with SQL (each stored path resolved, what versions 5, 6 and 8 added dropped, `user_version` 2).
    func makeVersion2Catalogue(in folder: String) throws {
        _ = try makeLibrary("\(folder)/library", jobIn: "\(folder)/library", catalogue: ".album", export: "site/{name}.jpg")
        try Fixture.jpeg(at: "\(folder)/outside/far.jpg")
        // A photo from outside the library, imported first so that the job's stages take it too.
        try album(["import", "\(folder)/outside/far.jpg", "--catalogue", "\(folder)/library/.album"])
        try album(["run", "job.yml", "--set", "LIBRARY=."], in: "\(folder)/library")
        let catalogue = "\(folder)/library/.album"
        let database = try Database(path: catalogue + "/catalogue.db")
        for table in ["photos", "renditions"] {
            try database.run("UPDATE \(table) SET path = ? || substr(path, 4) WHERE path LIKE '../%'", [.text("\(folder)/library/")])
            try database.run("UPDATE \(table) SET path = ? || path WHERE path NOT LIKE '/%'", [.text(catalogue + "/")])
        }
        try database.execute("""
            DROP TABLE second_originals; DROP TABLE distributed_chunks; DROP TABLE distributed; DROP INDEX runs_parent;
            ALTER TABLE runs DROP COLUMN parent; ALTER TABLE runs DROP COLUMN chunk;
            DROP TABLE aliases; ALTER TABLE photos DROP COLUMN damage; ALTER TABLE photos DROP COLUMN missing_kept; ALTER TABLE runs DROP COLUMN stages; \(CatalogueTests.droppingDeclaredColumns()) PRAGMA user_version = 2
            """)
        database.close()
        XCTAssert(try (storedPaths("photos", in: catalogue) + storedPaths("renditions", in: catalogue)).allSatisfy { $0.hasPrefix("/") })
    }

    /// The first writer migrates a version 2 catalogue where it is: then it moves like any other.
    func testASchemaVersion2CatalogueIsCarriedForwardAndThenMoves() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try makeVersion2Catalogue(in: folder)
        let catalogue = "\(folder)/library/.album"
        try album(["verify", "--catalogue", catalogue])  // a writer: it migrates
        let migrated = try Database(path: catalogue + "/catalogue.db")
        XCTAssertEqual(try migrated.query("PRAGMA user_version") { $0.int(0) }, [Schema.currentVersion])
        migrated.close()
        XCTAssertEqual(try storedPaths("photos", in: catalogue), ["dune", "storm", "wood"].map { "../photos/\($0).jpg" } + ["\(folder)/outside/far.jpg"])
        let renditions = try storedPaths("renditions", in: catalogue)
        XCTAssertEqual(renditions.filter { $0.hasPrefix("/") }, [], "renditions inside the library are all relative")
        XCTAssertEqual(renditions.filter { $0.hasPrefix("../") }, ["dune", "far", "storm", "wood"].map { "../site/\($0).jpg" })
        XCTAssertEqual(renditions.filter { $0.hasPrefix("thumbnails/") }.count, 6, "4, and the befores of the 2 filtered photos")

        try FileManager.default.moveItem(atPath: "\(folder)/library", toPath: "\(folder)/moved")
        try assertNothingToRedo(["run", "\(folder)/moved/job.yml", "--set", "LIBRARY=\(folder)/moved"], catalogue: "\(folder)/moved/.album")
    }

    func testStoredPathsAreRelativeInsideTheFolderAndItsParentAndResolveBack() {
        let paths = CataloguePaths(folder: "/photos/.album")
        let cases = [("/photos/.album/thumbnails/ab/x.jpg", "thumbnails/ab/x.jpg"), ("/photos/2024/a.jpg", "../2024/a.jpg"),
                     ("/photos/.albumx/a.jpg", "../.albumx/a.jpg"), ("/photosx/a.jpg", "/photosx/a.jpg"), ("/mnt/nas/b.jpg", "/mnt/nas/b.jpg")]
        for (absolute, stored) in cases {
            XCTAssertEqual(paths.stored(absolute), stored)
            XCTAssertEqual(paths.resolved(stored), absolute)
            XCTAssertEqual(CataloguePaths(folder: "/moved/.album").resolved(stored),
                           stored.hasPrefix("/") ? absolute : absolute.replacingOccurrences(of: "/photos/", with: "/moved/"))
        }
        // A catalogue whose parent is `/` stores only its own files relative: everything else is absolute.
        let top = CataloguePaths(folder: "/album")
        XCTAssertEqual(top.stored("/album/filtered/x.jpg"), "filtered/x.jpg")
        XCTAssertEqual(top.stored("/photos/a.jpg"), "/photos/a.jpg")
        XCTAssertEqual(top.resolved("filtered/x.jpg"), "/album/filtered/x.jpg")
    }

    /// A version 2 catalogue moved with its library before any writer migrated it keeps its old absolute paths, under
    /// neither the new folder nor its parent: `album relocate` from the old library to the new one rewrites them all,
    /// renditions inside the catalogue too, and stores them in the relative form.
    func testAVersion2CatalogueMovedBeforeItsMigrationIsRelocated() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try makeVersion2Catalogue(in: folder)
        try FileManager.default.moveItem(atPath: "\(folder)/library", toPath: "\(folder)/moved")
        let catalogue = "\(folder)/moved/.album"
        let broken = try album(["verify", "--catalogue", catalogue], status: 1)
        XCTAssert(broken.stdout.contains("\(folder)/library/.album/thumbnails/"), broken.stdout)
        let done = try album(["relocate", "--catalogue", catalogue, "--from", "\(folder)/library", "--to", "\(folder)/moved"])
        // 6 thumbnails (2 of them the filtered photos' befores), 2 filtered, 4 exports
        XCTAssert(done.stderr.contains("rewrote 3 originals and 12 renditions"), done.stderr)
        XCTAssertEqual(try storedPaths("photos", in: catalogue), ["dune", "storm", "wood"].map { "../photos/\($0).jpg" } + ["\(folder)/outside/far.jpg"])
        XCTAssertEqual(try storedPaths("renditions", in: catalogue).filter { $0.hasPrefix("/") }, [])
        try assertNothingToRedo(["run", "\(folder)/moved/job.yml", "--set", "LIBRARY=\(folder)/moved"], catalogue: catalogue)
    }

    /// The plan's "to do" column per stage, from `album plan ARGUMENTS`.
    func toDo(_ arguments: [String], in folder: String? = nil) throws -> [String: Int] {
        let plan = try album(["plan"] + arguments, in: folder)
        var counts: [String: Int] = [:]
        for line in plan.stdout.split(separator: "\n") {
            let fields = line.split(separator: " ")
            if fields.count == 4, StageRegistry.stepNames.map(\.rawValue).contains(String(fields[0])), let n = Int(fields[1]) { counts[String(fields[0])] = n }
        }
        return counts
    }

    /// The export rows as the database holds them: path, parameters' hash and the run that wrote each.
    func exportRows(_ catalogue: String) throws -> [String] {
        try Probe.rows(catalogue, "SELECT path || ' ' || params_hash || ' ' || run FROM renditions WHERE kind = 'export' ORDER BY path")
    }

    /// A library moved whole (issue 29, item 4): its exports' parameters record their root relative to the job's
    /// folder, so the plan made before any run after the move has nothing to do, and the run renders nothing and
    /// writes no rendition row (an export made again would be recorded by the new run, even where its bytes were
    /// found identical).
    func testAMovedLibraryPlansNothingAndItsRunWritesNoExportAgain() throws {
        try assertAMovedLibraryRedoesNothing(export: "site/{name}.jpg")
    }

    /// The same with the export folder given absolute through a variable (`--set LIBRARY=/abs/library`), under the
    /// job's folder: the template is recorded relative to it too.
    func testAMovedLibraryWithAnAbsoluteExportPathUnderItRedoesNothing() throws {
        try assertAMovedLibraryRedoesNothing(export: "${LIBRARY}/site/{name}.jpg")
    }

    func assertAMovedLibraryRedoesNothing(export: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let folder = try TestSupport.temporaryFolder(self)
        _ = try makeLibrary("\(folder)/library", jobIn: "\(folder)/library", catalogue: ".album", export: export)
        try album(["run", "job.yml", "--set", "LIBRARY=\(folder)/library"], in: "\(folder)/library")
        let rows = try exportRows("\(folder)/library/.album")
        XCTAssertEqual(rows.count, 3, file: file, line: line)

        try FileManager.default.moveItem(atPath: "\(folder)/library", toPath: "\(folder)/moved")
        let run = ["moved/job.yml", "--set", "LIBRARY=\(folder)/moved"]
        XCTAssertEqual(try toDo(run, in: folder), ["import": 0, "filter": 0, "thumbnail": 0, "export": 0], "the plan before the run",
                       file: file, line: line)
        try album(["run"] + run, in: folder)
        XCTAssertEqual(try exportRows("\(folder)/moved/.album"), rows, "no export was made or recorded again", file: file, line: line)
        XCTAssertEqual(try toDo(run, in: folder), ["import": 0, "filter": 0, "thumbnail": 0, "export": 0], file: file, line: line)
        try album(["verify", "--catalogue", "\(folder)/moved/.album"])
    }

    /// A real change of destination still exports: the same job file copied into another folder, with the same
    /// catalogue, writes its exports under that folder (their paths are not the recorded ones).
    func testTheJobMovedAwayFromItsExportsStillExports() throws {
        let folder = try TestSupport.temporaryFolder(self)
        _ = try makeLibrary("\(folder)/library", jobIn: "\(folder)/one", catalogue: "\(folder)/album", export: "site/{name}.jpg")
        let set = ["--set", "LIBRARY=\(folder)/library"]
        try album(["run", "one/job.yml"] + set, in: folder)
        try FileManager.default.createDirectory(atPath: "\(folder)/two", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: "\(folder)/one/job.yml", toPath: "\(folder)/two/job.yml")
        XCTAssertEqual(try toDo(["two/job.yml"] + set, in: folder)["export"], 3)
        try album(["run", "two/job.yml"] + set, in: folder)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: "\(folder)/two/site").sorted(), ["dune.jpg", "storm.jpg", "wood.jpg"])
        XCTAssertEqual(try Probe.rows("\(folder)/album", "SELECT count(*) FROM renditions WHERE kind = 'export'"), ["6"],
                       "each destination's exports recorded")
        XCTAssertEqual(try toDo(["two/job.yml"] + set, in: folder)["export"], 0)
        try album(["verify", "--catalogue", "\(folder)/album"])
    }

    /// A catalogue whose exports an earlier album recorded with the root absolute in their parameters (made here by
    /// rewriting the rows' hash to that one) renders nothing on the next run: each row takes the new hash.
    func testExportsRecordedWithAnAbsoluteRootAreUpToDate() throws {
        let folder = try TestSupport.temporaryFolder(self)
        _ = try makeLibrary("\(folder)/library", jobIn: "\(folder)/library", catalogue: ".album", export: "site/{name}.jpg")
        let library = "\(folder)/library", catalogue = "\(folder)/library/.album"
        try album(["run", "job.yml", "--set", "LIBRARY=."], in: library)
        let recorded = try XCTUnwrap(Probe.rows(catalogue, "SELECT params FROM steps WHERE stage = 'export' LIMIT 1").first)
        XCTAssert(recorded.contains(#""root":"site""#), recorded)
        let absolute = try XCTUnwrap(JSONValue(parsing: recorded.replacingOccurrences(of: #""root":"site""#, with: #""root":"\#(library)/site""#)))
        let old = StageParameters(stage: .export, parameters: absolute, software: .current).hash
        let database = try Database(path: catalogue + "/catalogue.db")
        try database.run("UPDATE renditions SET params_hash = ? WHERE kind = 'export'", [.text(old)])
        database.close()
        let before = try exportRows(catalogue)

        XCTAssertEqual(try toDo(["job.yml", "--set", "LIBRARY=."], in: library)["export"], 0)
        try album(["run", "job.yml", "--set", "LIBRARY=."], in: library)
        let after = try exportRows(catalogue)
        XCTAssertEqual(after.map { $0.split(separator: " ")[2] }, before.map { $0.split(separator: " ")[2] }, "the rows' runs: nothing rendered")
        XCTAssert(after.allSatisfy { !$0.contains(old) }, "each row has the new hash: \(after)")
        try assertNothingToRedo(["run", "\(library)/job.yml", "--set", "LIBRARY=\(library)"], catalogue: catalogue)
    }
}
