import XCTest

/// `album plan` and `album run` decide the same things by the same rules (an unchanged file, the current photos,
/// each stage's up-to-date check): before a run, the plan's counts are the run's steps, stage by stage (to do =
/// done + failed, up to date = skipped); after a run that exited 0, the plan has nothing to do. On generated photos,
/// through the built binary; the run's steps are read back with the sqlite3 shell (`Probe`).
final class PlanRunAgreementTests: XCTestCase {
    typealias Counts = (toDo: Int, upToDate: Int, leftOut: Int)

    /// The plan's table: per stage, to do, up to date, left out.
    func plan(_ job: String, in folder: String, file: StaticString = #filePath, line: UInt = #line) throws -> [String: [Int]] {
        let result = try TestSupport.album(["plan", job], in: folder)
        XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
        var counts: [String: [Int]] = [:]
        for row in result.stdout.split(separator: "\n") {
            // "up to 4": the most, when only headers would say (counted as 4).
            let fields = row.replacingOccurrences(of: " up to ", with: " ").split(separator: " ")
            guard fields.count == 4, ["import", "filter", "thumbnail", "export"].contains(String(fields[0])) else { continue }
            counts[String(fields[0])] = fields.dropFirst().compactMap { Int($0) }
        }
        // `album run --dry-run` prints the same plan.
        let dry = try TestSupport.album(["run", job, "--dry-run"], in: folder)
        XCTAssertEqual(dry.stdout, result.stdout, "run --dry-run prints album plan's plan", file: file, line: line)
        return counts
    }

    /// Runs the job and returns its exit status and the newest run's steps: per stage, [done, skipped, failed]; done
    /// and failed are its step rows, skipped its row's counts (a skipped step is no row).
    func run(_ job: String, in folder: String) throws -> (status: Int32, steps: [String: [Int]], stderr: String) {
        let result = try TestSupport.album(["run", job], in: folder)
        var steps: [String: [Int]] = [:]
        for row in try Probe.rows(folder + "/album", """
            SELECT j.key, (SELECT count(*) FROM steps s WHERE s.run = r.id AND s.stage = j.key AND s.status = 'done'),
            json_extract(j.value, '$.skipped'),
            (SELECT count(*) FROM steps s WHERE s.run = r.id AND s.stage = j.key AND s.status = 'failed')
            FROM runs r, json_each(r.counts) j
            WHERE r.id = (SELECT max(id) FROM runs) AND j.key IN ('import', 'filter', 'thumbnail', 'export')
            """) {
            let fields = row.split(separator: "|")
            steps[String(fields[0])] = fields.dropFirst().compactMap { Int($0) }
        }
        return (result.status, steps, result.stderr)
    }

    /// Plans `job`, runs it, and checks the run did what the plan said, then that a plan after it has nothing to do.
    /// - Returns: the plan before the run.
    @discardableResult
    func assertAgree(_ job: String, in folder: String, file: StaticString = #filePath, line: UInt = #line) throws -> [String: [Int]] {
        let before = try plan(job, in: folder, file: file, line: line)
        let ran = try run(job, in: folder)
        XCTAssertEqual(ran.status, 0, ran.stderr, file: file, line: line)
        for stage in Set(before.keys).union(ran.steps.keys) {
            let planned = before[stage] ?? [0, 0, 0], steps = ran.steps[stage] ?? [0, 0, 0]
            XCTAssertEqual(planned[0], steps[0] + steps[2], "\(stage): to do is what the run did (plan \(before), steps \(ran.steps))", file: file, line: line)
            XCTAssertEqual(planned[1], steps[1], "\(stage): up to date is what the run skipped (plan \(before), steps \(ran.steps))", file: file, line: line)
        }
        let after = try plan(job, in: folder, file: file, line: line)
        XCTAssertEqual(after.values.map { $0[0] }.reduce(0, +), 0, "after a run that exited 0, nothing is to do: \(after)", file: file, line: line)
        return before
    }

    @discardableResult
    func photos(in folder: String) throws -> [String] {
        [
            try Fixture.jpeg(at: "\(folder)/photos/a.jpg", taken: "2008:04:20 10:00:00", variant: 1),
            try Fixture.jpeg(at: "\(folder)/photos/b.jpg", taken: "2008:04:25 10:00:00", variant: 2),
            try Fixture.jpeg(at: "\(folder)/photos/c.jpg", taken: "2010:01:02 10:00:00", variant: 3),
            try Fixture.jpeg(at: "\(folder)/photos/trip/d.jpg", variant: 4),
        ]
    }

    /// Writes a new version of the photo at `path` (new bytes, a modification time set apart by hand: no test
    /// waits for a clock to tick).
    func edit(_ path: String, variant: Int) throws {
        try Fixture.jpeg(at: path, taken: "2008:04:20 10:00:00", variant: variant)
        XCTAssertEqual(try Tool.run(["touch", "-m", "-d", "2001-02-03 04:05:06", path]).status, 0)
    }

    func write(_ stages: String, select: String? = nil, to name: String = "job.yml", in folder: String) throws {
        try TestSupport.write("version: 1\ncatalogue: album\n" + (select.map { "select: \($0)\n" } ?? "") + "stages:\n" + stages,
                              to: name, in: folder)
    }

    func testImportAndThumbnailAgreeOnTheFirstRunAndEveryRerun() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try photos(in: folder)
        try write("  - import: {from: photos}\n  - thumbnail: {size: 64x64}\n", in: folder)
        let first = try assertAgree("job.yml", in: folder)
        XCTAssertEqual(first["import"], [4, 0, 0])
        XCTAssertEqual(first["thumbnail"], [4, 0, 0])
        let rerun = try assertAgree("job.yml", in: folder)
        XCTAssertEqual(rerun["import"], [0, 4, 0])
        XCTAssertEqual(rerun["thumbnail"], [0, 4, 0])
        try write("  - import: {from: photos}\n  - thumbnail: {size: 80x80}\n", in: folder)
        XCTAssertEqual(try assertAgree("job.yml", in: folder)["thumbnail"], [4, 0, 0], "a new size is every thumbnail to do")
    }

    /// An import root that holds the catalogue folder (not hidden) and the export root: neither is imported, by
    /// the plan or by the run, on the first run and every rerun.
    func testDerivedFilesUnderTheImportRootAreLeftOutAlike() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try photos(in: folder)
        try write("  - import: {from: .}\n  - thumbnail: {size: 64x64}\n  - export: {from: thumbnail, to: \"out/{name}.jpg\"}\n",
                  in: folder)
        let first = try assertAgree("job.yml", in: folder)
        XCTAssertEqual(first["import"], [4, 0, 0])
        XCTAssertEqual(first["export"], [4, 0, 0])
        for _ in 0..<2 {
            let rerun = try assertAgree("job.yml", in: folder)
            XCTAssertEqual(rerun["import"], [0, 4, 0], "the catalogue's thumbnails and the exports are never imported")
            XCTAssertEqual(rerun["export"], [0, 4, 0])
        }
    }

    func testJobAndStageSelectionsAgree() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try photos(in: folder)
        // Before any import: a path glob and `missing:` are known from the name and the catalogue.
        try write("  - import: {from: photos}\n  - thumbnail: {size: 64x64, select: {missing: thumbnail}}\n",
                  select: "{path: \"photos/*.jpg\"}", in: folder)
        let first = try assertAgree("job.yml", in: folder)
        XCTAssertEqual(first["thumbnail"], [3, 0, 1], "trip/d.jpg is left out by the path glob")
        // A date range at the job's level and at a stage's, and `missing: thumbnail` once some photos have one.
        try write("""
              - import: {from: photos}
              - filter: {preset: sepia, select: {taken: 2008-04-01..2008-04-30}}
              - thumbnail: {size: 64x64, select: {missing: thumbnail}}
            """ + "\n", select: "{taken: 2008-01-01..2010-12-31}", in: folder)
        let second = try assertAgree("job.yml", in: folder)
        XCTAssertEqual(second["filter"], [2, 0, 2], "a and b are in April 2008; c is left out by the stage, d (undated) by the job")
        XCTAssertEqual(second["thumbnail"], [0, 0, 4], "the selected photos have thumbnails; d is left out by the job")
    }

    /// Issue 32: a sidecar changed, added or removed is import's work (facts updated) in the plan as in the run,
    /// and a stage whose `select:` the new facts now meet, or no longer meet, counts alike.
    func testSidecarChangesAndTheSelectionsTheyMoveAgree() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try photos(in: folder)
        let sidecar = { (rating: Int, label: String) in
            XMPSidecarTests.elementSidecar(rating: rating, label: label)
        }
        try TestSupport.write(sidecar(5, "Red"), to: "photos/a.xmp", in: folder)
        try TestSupport.write(sidecar(1, "Blue"), to: "photos/b.jpg.xmp", in: folder)
        try write("  - import: {from: photos}\n  - thumbnail: {size: 64x64, select: {rating: \">= 4\"}}\n", in: folder)
        // Before the first import a sidecar's rating is known (it wins over the file's): b.jpg is left out. A photo
        // with no sidecar may carry a rating in its own XMP: the plan counts "up to" it, as for any key the header
        // answers (`testASelectOnTheHeaderOfAFileStillToImportIsCountedInAndSaysSo`).
        let planned = try TestSupport.album(["plan", "job.yml"], in: folder)
        XCTAssert(planned.stdout.contains("thumbnail  up to 3           0         1"), planned.stdout)
        let first = try run("job.yml", in: folder)
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(first.steps["thumbnail"], [1, 0, 0], "a.jpg alone is rated 4 or more")
        XCTAssertEqual(try assertAgree("job.yml", in: folder)["thumbnail"], [0, 1, 3])
        try TestSupport.write(sidecar(4, "Green"), to: "photos/b.jpg.xmp", in: folder)
        let second = try assertAgree("job.yml", in: folder)
        XCTAssertEqual(second["import"], [1, 3, 0], "b.jpg's facts are updated")
        XCTAssertEqual(second["thumbnail"], [1, 1, 2], "b.jpg joins the selection; a.jpg's thumbnail is up to date")
        try FileManager.default.removeItem(atPath: folder + "/photos/a.xmp")
        let third = try assertAgree("job.yml", in: folder)
        XCTAssertEqual(third["import"], [1, 3, 0], "a.jpg's sidecar is gone")
        XCTAssertEqual(third["thumbnail"], [0, 1, 3], "a.jpg leaves the selection")
    }

    func testFiltersAgreeWhenTheLookChanges() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try photos(in: folder)
        var filter: [[Int]] = []
        for preset in ["none", "sepia", "noir", "sepia", "none"] {
            try write("  - import: {from: photos}\n  - filter: {preset: \(preset)}\n  - thumbnail: {size: 64x64}\n", in: folder)
            filter.append(try assertAgree("job.yml", in: folder)["filter"] ?? [])
        }
        // The second sepia finds its filtered images already made, but switching each photo back to it is work done.
        XCTAssertEqual(filter, [[0, 4, 0], [4, 0, 0], [4, 0, 0], [4, 0, 0], [4, 0, 0]])
    }

    /// `keep: full-size` and the default look alike to the photo but not to the plan: the kept file is to write
    /// when it is not there (and again when it is damaged), the look alone is up to date once the photo has it.
    func testKeepFullSizeAndTheDefaultAgree() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try photos(in: folder)
        var counts: [[Int]] = []
        for keep in ["", ", keep: full-size", ", keep: full-size", "", ", keep: none", ", keep: full-size"] {
            if counts.count == 5 {
                // A kept file that is no longer intact is to write again; the other three are up to date.
                let damaged = try XCTUnwrap(try Probe.rows(folder + "/album", "SELECT path FROM renditions WHERE kind = 'filtered' LIMIT 1").first)
                try Data("short".utf8).write(to: URL(fileURLWithPath: damaged.hasPrefix("/") ? damaged : folder + "/album/" + damaged))
            }
            try write("  - import: {from: photos}\n  - filter: {preset: sepia\(keep)}\n  - thumbnail: {size: 64x64}\n", in: folder)
            let agreed = try assertAgree("job.yml", in: folder)
            counts.append((agreed["filter"] ?? []) + (agreed["thumbnail"] ?? []))
        }
        XCTAssertEqual(counts, [[4, 0, 0, 4, 0, 0], [4, 0, 0, 0, 4, 0], [0, 4, 0, 0, 4, 0], [0, 4, 0, 0, 4, 0], [0, 4, 0, 0, 4, 0],
                                [1, 3, 0, 0, 4, 0]])
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT count(DISTINCT path) FROM renditions WHERE kind = 'filtered'"), ["4"])
    }

    func testExportsAgree() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try photos(in: folder)
        let stages = """
              - import: {from: photos}
              - filter: {preset: noir, select: {taken: 2008-04-01..2008-04-30}}
              - thumbnail: {size: 64x64}
              - export: {from: thumbnail, to: "out/thumbs/{name}.jpg"}
              - export: {to: "out/full/{taken:yyyy}/{name}.jpg", quality: 80}
            """ + "\n"
        // Imported first: a plan cannot know a capture date before the run reads the header (see the last test).
        XCTAssertEqual(try TestSupport.album(["import", "photos", "--catalogue", "album"], in: folder).status, 0)
        try write(stages, in: folder)
        XCTAssertEqual(try assertAgree("job.yml", in: folder)["export"], [8, 0, 0])
        XCTAssertEqual(try assertAgree("job.yml", in: folder)["export"], [0, 8, 0])
        try write(stages.replacingOccurrences(of: "quality: 80", with: "quality: 60"), in: folder)
        XCTAssertEqual(try assertAgree("job.yml", in: folder)["export"], [4, 4, 0], "the full-size exports are redone")
    }

    func testAnEditedOriginalAgrees() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let paths = try photos(in: folder)
        try write("  - import: {from: photos}\n  - filter: {preset: sepia}\n  - thumbnail: {size: 64x64}\n", in: folder)
        try assertAgree("job.yml", in: folder)
        try edit(paths[0], variant: 9)
        let plan = try assertAgree("job.yml", in: folder)
        XCTAssertEqual(plan["import"], [1, 3, 0], "the edited file is to import")
        XCTAssertEqual(plan["filter"], [1, 3, 0], "its new version is to filter; its old version is not taken")
        XCTAssertEqual(plan["thumbnail"], [1, 3, 0])
    }

    /// RAW+JPEG pairs (docs/catalogue.md, "Pairs"): a pair is one photo to import and thumbnail; an edited RAW is
    /// an import to do (its new version) and nothing to render; a change of `pair:` regroups alike.
    func testPairsAgree() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try photos(in: folder)
        try Fixture.jpeg(at: "\(folder)/photos/IMG_1.JPG", variant: 7)
        try RawFixture.dng(at: "\(folder)/photos/IMG_1.DNG", preview: "320x240")
        try write("  - import: {from: photos}\n  - thumbnail: {size: 64x64}\n", in: folder)
        XCTAssertEqual(try assertAgree("job.yml", in: folder)["import"], [5, 0, 0], "the pair is one photo")
        try RawFixture.dng(at: "\(folder)/photos/IMG_1.DNG", preview: "320x240", ["--model", "Canon EOS 5D"])
        let edited = try assertAgree("job.yml", in: folder)
        XCTAssertEqual(edited["import"], [1, 4, 0], "the RAW's new version")
        XCTAssertEqual(edited["thumbnail"], [0, 5, 0], "the JPEG renders: nothing to render again")
        for pair in ["raw", "separate", "jpeg", "raw", "jpeg"] {
            try write("  - import: {from: photos, pair: \(pair)}\n  - thumbnail: {size: 64x64}\n", in: folder)
            try assertAgree("job.yml", in: folder)
        }
    }

    /// The bug this rule fixed: the superseded photo went through the stages after import and failed with "has
    /// changed since it was imported", so the run exited 1.
    func testAnEditedOriginalAndANewThumbnailSizeInOneRerunExitZeroAndThumbnailOnlyTheNewVersion() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let paths = try photos(in: folder)
        try write("  - import: {from: photos}\n  - thumbnail: {size: 64x64}\n", in: folder)
        try assertAgree("job.yml", in: folder)
        let oldID = try XCTUnwrap(Probe.rows(folder + "/album", "SELECT id FROM photos WHERE path = '\(Probe.stored(paths[0], in: folder + "/album"))'").first)

        try edit(paths[0], variant: 9)
        try write("  - import: {from: photos}\n  - thumbnail: {size: 96x96}\n", in: folder)
        let plan = try assertAgree("job.yml", in: folder)  // exit 0 checked there
        XCTAssertEqual(plan["thumbnail"], [4, 0, 0])
        let newID = try XCTUnwrap(Probe.rows(folder + "/album", "SELECT id FROM photos WHERE replaces = '\(oldID)'").first)
        let lastRun = "(SELECT max(id) FROM runs)"
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT status FROM steps WHERE run = \(lastRun) AND photo = '\(newID)' AND stage = 'thumbnail'"),
                       ["done"], "the new version is thumbnailed")
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT count(*) FROM steps WHERE run = \(lastRun) AND photo = '\(oldID)'"),
                       ["0"], "the superseded version is not processed")
        let thumbnail = try Probe.header(Probe.newestThumbnail(folder + "/album", original: paths[0]))
        XCTAssertEqual([thumbnail.width, thumbnail.height], [96, 96])
    }

    /// A job without import (a nightly reprocess) is all phase 2: it takes the current photos, never a version that
    /// a newer one of its file replaced.
    func testAJobWithoutImportTakesOnlyTheCurrentVersionOfAnEditedOriginal() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let paths = try photos(in: folder)
        try write("  - import: {from: photos}\n  - thumbnail: {size: 64x64}\n", in: folder)
        try assertAgree("job.yml", in: folder)
        try edit(paths[0], variant: 9)
        try assertAgree("job.yml", in: folder)
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT count(*) FROM photos"), ["5"], "a.jpg has two versions")

        try write("  - thumbnail: {size: 96x96}\n", to: "nightly.yml", in: folder)
        let plan = try assertAgree("nightly.yml", in: folder)  // exit 0 checked there
        XCTAssertEqual(plan["thumbnail"], [4, 0, 0], "four current photos; the superseded version is not one")
        XCTAssertEqual(try Probe.rows(folder + "/album", """
            SELECT count(*) FROM steps WHERE run = (SELECT max(id) FROM runs)
            AND photo IN (SELECT replaces FROM photos WHERE replaces IS NOT NULL)
            """), ["0"], "the superseded version is not processed")
    }

    /// The same bytes under two names are one photo with an alias (docs/catalogue.md, "Aliases"). The plan reads the
    /// files whose size another has, so it counts what the run does: one chain per photo, and the other name's
    /// import and export; then a copy added later, and an alias deleted.
    func testAliasesAgree() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let paths = try photos(in: folder)
        try FileManager.default.copyItem(atPath: paths[0], toPath: "\(folder)/photos/copy of a.jpg")
        try write("  - import: {from: photos}\n  - thumbnail: {size: 64x64}\n  - export: {from: thumbnail, to: \"out/{name}.jpg\"}\n",
                  in: folder)
        let first = try assertAgree("job.yml", in: folder)
        XCTAssertEqual(first["import"], [5, 0, 0])
        XCTAssertEqual(first["thumbnail"], [4, 0, 0], "a thumbnail per photo")
        XCTAssertEqual(first["export"], [5, 0, 0], "an export per name")
        let rerun = try assertAgree("job.yml", in: folder)
        XCTAssertEqual(rerun["import"], [0, 5, 0])
        XCTAssertEqual(rerun["export"], [0, 4, 0], "one export step per photo, for all its names")

        try FileManager.default.copyItem(atPath: paths[1], toPath: "\(folder)/photos/trip/b again.jpg")
        let copied = try assertAgree("job.yml", in: folder)
        XCTAssertEqual(copied["import"], [1, 5, 0])
        XCTAssertEqual(copied["thumbnail"], [0, 4, 0])
        XCTAssertEqual(copied["export"], [1, 4, 0])

        let alias = try XCTUnwrap(Probe.rows(folder + "/album", "SELECT path FROM aliases ORDER BY added LIMIT 1").first)
        try FileManager.default.removeItem(atPath: folder + "/" + alias.dropFirst(3))
        let deleted = try assertAgree("job.yml", in: folder)
        XCTAssertEqual(deleted["import"], [0, 5, 0])
        XCTAssertEqual(deleted["export"], [0, 4, 0])
    }

    /// The states that keep a photo out of the stages (`PhotoRecord.heldBack`): a damaged photo not retried and a
    /// missing one are left out by the plan as by the run, with a job that imports and with one that does not
    /// (all phase 2), and both count them alike.
    func testDamagedAndMissingPhotosAreHeldBackAlike() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let paths = try photos(in: folder)
        let whole = try Data(contentsOf: URL(fileURLWithPath: paths[1]))
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: paths[1]))  // b.jpg: its pixels end early
        try write("  - import: {from: photos}\n  - thumbnail: {size: 64x64}\n", in: folder)
        XCTAssertEqual(try run("job.yml", in: folder).status, 1, "the run that finds the damage fails the photo")
        try FileManager.default.removeItem(atPath: paths[2])  // c.jpg: missing

        let rerun = try assertAgree("job.yml", in: folder)
        XCTAssertEqual(rerun["thumbnail"], [0, 2, 2], "a and d up to date; b (damaged) and c (missing) left out")
        let plan = try TestSupport.album(["plan", "job.yml"], in: folder)
        XCTAssert(plan.stdout.contains("1 damaged photo, not retried") && plan.stdout.contains("1 missing photo"), plan.stdout)
        try write("  - thumbnail: {size: 96x96}\n", to: "nightly.yml", in: folder)
        XCTAssertEqual(try assertAgree("nightly.yml", in: folder)["thumbnail"], [2, 0, 2], "without import too")
    }

    /// The one thing a plan cannot know: what a file still to import has in its header. A `select:` on `taken`,
    /// `caption`, `camera` or `format` counts such a file in, and says so; the run then reads the header.
    func testASelectOnTheHeaderOfAFileStillToImportIsCountedInAndSaysSo() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try photos(in: folder)
        try write("  - import: {from: photos}\n  - thumbnail: {size: 64x64, select: {taken: 2008-04-01..2008-04-30}}\n", in: folder)
        let verbose = try TestSupport.album(["plan", "job.yml", "--verbose"], in: folder)
        XCTAssertEqual(verbose.stdout.components(separatedBy: "thumbnail to do (if its header matches select)").count - 1, 4, verbose.stdout)
        XCTAssertEqual(try plan("job.yml", in: folder)["thumbnail"], [4, 0, 0])
        XCTAssert(verbose.stdout.contains("  thumbnail  up to 4"), "a most, said so: \(verbose.stdout)")
        let ran = try run("job.yml", in: folder)
        XCTAssertEqual(ran.status, 0, ran.stderr)
        XCTAssertEqual(ran.steps["thumbnail"], [2, 0, 0], "the run reads the headers: a and b are in April 2008")
        XCTAssertEqual(try plan("job.yml", in: folder)["thumbnail"], [0, 2, 2], "imported, their dates are known")
    }
}
