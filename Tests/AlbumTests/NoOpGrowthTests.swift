import XCTest

/// Issue 16, problem 6: a rerun that finds everything up to date writes nothing per photo. A skipped step is
/// counted on its run's row (`runs.counts`), never inserted as a step row, so five no-op reruns of a 60-photo job
/// grow the catalogue by less than 16 KB in all, and a photo's history (`album show`) is what changed it and what
/// failed. Measured through the built `album` on generated JPEGs; the database is read with the sqlite3 shell.
final class NoOpGrowthTests: XCTestCase {
    let photoCount = 60
    let stages = ["import", "filter", "thumbnail", "export"]

    /// 60 small distinct JPEGs (64×48) and a job that imports, tones, thumbnails and exports them.
    func makeJob(in folder: String) throws {
        for index in 0..<photoCount {
            // A capture time of its own makes each file's bytes its own, whatever JPEG makes of the pixels.
            try Fixture.jpeg(at: "\(folder)/photos/p\(index).jpg", width: 64, height: 48,
                             taken: "2008:04:01 10:\(index < 10 ? "0" : "")\(index):00", variant: index)
        }
        try TestSupport.write("""
            version: 1
            name: nightly
            catalogue: album
            stages:
              - import: {from: photos}
              - filter: {preset: sepia, keep: full-size}
              - thumbnail: {size: 32x32}
              - export: {from: thumbnail, to: "out/{name}.jpg"}
            """, to: "job.yml", in: folder)
    }

    /// Bytes of the database's pages in use, after a checkpoint that empties the WAL into the file: what the
    /// catalogue holds, whatever SQLite's free pages or WAL.
    func bytesInUse(_ folder: String) throws -> Int {
        let database = folder + "/album/catalogue.db"
        let checkpoint = try Tool.sqlite(database, "PRAGMA wal_checkpoint(TRUNCATE);", writing: true)
        XCTAssertEqual(checkpoint, "0|0|0", "the checkpoint copied every frame and truncated the WAL")
        let text = try Tool.sqlite(database, """
            SELECT (page_count - freelist_count) * page_size FROM pragma_page_count(), pragma_freelist_count(), pragma_page_size();
            """)
        return try XCTUnwrap(Int(text), text)
    }

    /// `album runs --json`, newest first.
    func runs(in folder: String) throws -> [[String: Any]] {
        let result = try TestSupport.album(["runs", "--json"], in: folder)
        XCTAssertEqual(result.status, 0, result.stderr)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]], result.stdout)
    }

    func events(_ lines: [String]) -> [[String: Any]] {
        lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    func testFiveNoOpRerunsOfASixtyPhotoJobGrowTheCatalogueByUnder16KB() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try makeJob(in: folder)
        let first = try TestSupport.album(["run", "job.yml"], in: folder)
        XCTAssertEqual(first.status, 0, first.stderr)
        let steps = try Probe.rows(folder + "/album", "SELECT count(*) FROM steps")
        XCTAssertEqual(steps, [String(photoCount * 4)], "the first run did every step: one row each")
        let before = try bytesInUse(folder)

        for rerun in 1...5 {
            let result = try TestSupport.album(["run", "job.yml"], in: folder)
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertNotNil((result.stdout + result.stderr).range(of: #"\n  thumbnail +0 +60 +0 "#, options: .regularExpression),
                            "rerun \(rerun) skips every step: \(result.stdout)\(result.stderr)")
        }
        let after = try bytesInUse(folder)
        print("NoOpGrowthTests: five no-op reruns of \(photoCount) photos: \(before) -> \(after) bytes in use (+\(after - before))")
        XCTAssertLessThan(after - before, 16 * 1024, "five no-op reruns grew the catalogue from \(before) to \(after) bytes")
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT count(*) FROM steps"), steps, "no step row was added")
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT count(*) FROM runs"), ["6"], "one row per run")

        // Each rerun's row holds its skipped steps, per stage: `album runs` reads them there.
        let listed = try runs(in: folder)
        XCTAssertEqual(listed.count, 6)
        for run in listed.prefix(5) {
            let counts = try XCTUnwrap(run["counts"] as? [String: [String: Int]], "\(run)")
            for stage in stages {
                XCTAssertEqual(counts[stage], ["done": 0, "skipped": photoCount, "failed": 0], "run \(run["id"]!), \(stage)")
            }
        }
        let text = try TestSupport.album(["runs"], in: folder)
        XCTAssertNotNil(text.stdout.range(of: #"\n  6  nightly  ok +\S+ \S+ [+-]\S+ +\S+ \S+ [+-]\S+ +0 +240 +0  "#, options: .regularExpression), text.stdout)

        // A photo's history is the first run's four steps, whatever the reruns: short.
        let photo = try XCTUnwrap(Probe.rows(folder + "/album", "SELECT id FROM photos WHERE path LIKE '%/p7.jpg'").first)
        let show = try TestSupport.album(["show", photo], in: folder)
        XCTAssertEqual(show.status, 0, show.stderr)
        XCTAssert(show.stdout.contains("history (4 steps, oldest first)"), show.stdout)
        XCTAssertLessThan(show.stdout.split(separator: "\n").count, 30, show.stdout)
        let json = try TestSupport.album(["show", photo, "--json"], in: folder)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let history = try XCTUnwrap(object["history"] as? [[String: Any]])
        XCTAssertEqual(history.map { "\($0["run"]!) \($0["stage"]!) \($0["status"]!)" },
                       ["1 import done", "1 filter done", "1 thumbnail done", "1 export done"])

        // The report of a rerun counts its skipped steps from its row, and has no photo it changed.
        let report = try TestSupport.album(["report", "--out", "r.html"], in: folder)
        XCTAssertEqual(report.status, 0, report.stderr)
        let html = try String(contentsOfFile: folder + "/r.html", encoding: .utf8)
        XCTAssert(html.contains("<tr><th>thumbnail</th><td>0</td><td>60</td>"), html)
        XCTAssert(html.contains("<h2>Photos (0)</h2><p class=\"note\">The run changed no photo: its 240 steps were up to date."), html)
        let sheet = try TestSupport.album(["report", "--contact-sheet", "sheet.jpg"], in: folder)
        XCTAssertNotEqual(sheet.status, 0)
        XCTAssert(sheet.stderr.contains("run 6 changed no photo and failed none, so there is nothing to put on its contact sheet"), sheet.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/sheet.jpg"))
    }

    /// A no-op rerun whose output is a one-page pipe blocks on its events, so a kill surely lands mid-run.
    func startBlockedRun(in folder: String) throws -> (child: Spawn, events: LineReader, descriptor: Int32) {
        let pipe = try Spawn.pipe()
        XCTAssertGreaterThan(fcntl(pipe.write, SignalTests.setPipeSize, 4096), 0)
        let child = try Spawn(["run", "job.yml", "--workers", "2", "--log-format", "json"], in: folder,
                              stdout: .descriptor(pipe.write), stderr: .log(folder + "/log.txt"))
        close(pipe.write)
        return (child, LineReader(pipe.read), pipe.read)
    }

    /// A run stopped by SIGINT records its counts as it ends, skipped steps included, and they are its events'.
    ///
    /// Synchronised on album's own state, never on time: with one worker the files are taken in path order, a new
    /// photo first (`a-new.jpg`), the 60 up-to-date ones, a new one last (`z-new.jpg`). Once the first skipped event
    /// is read, album's stdout is filled, so album waits on its output among the up-to-date photos; the signal is
    /// sent and, once album has read it (its stop takes effect as it is read), stdout is read to its end.
    func testAnInterruptedRunRecordsItsSkippedCountsAndTheyAreItsEvents() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try makeJob(in: folder)
        XCTAssertEqual(try TestSupport.album(["run", "job.yml"], in: folder).status, 0)
        for (index, name) in ["a-new", "z-new"].enumerated() {
            try Fixture.jpeg(at: "\(folder)/photos/\(name).jpg", width: 80, height: 60, variant: 100 + index)
        }
        let run = try SignalTests.Run(in: folder)
        var lines = run.read(until: #""status":"skipped""#)
        try run.fillStandardOutput()
        XCTAssertTrue(run.waitUntilBlockedOnAPipe(boundedBy: 60), "album waits on its full stdout")
        kill(run.child.pid, SIGINT)
        XCTAssertTrue(run.waitUntilDelivered(SIGINT, boundedBy: 60), "album read the signal")
        lines += run.rest()
        _ = run.standardError(boundedBy: 120)
        XCTAssertEqual(run.child.wait(), .exited(130))

        let events = events(lines)
        XCTAssertEqual(events.last?["status"] as? String, "interrupted")
        let steps = events.filter { $0["event"] as? String == "step" }
        let exported = steps.filter { $0["stage"] as? String == "export" && $0["status"] as? String == "done" }
            .compactMap { ($0["path"] as? String).map { URL(fileURLWithPath: $0).lastPathComponent } }
        XCTAssertEqual(exported, ["a-new.jpg"], "the signal stopped the run before its last new photo")
        let listed = try runs(in: folder)
        XCTAssertEqual(listed.first?["status"] as? String, "interrupted")
        var counts = try XCTUnwrap(listed.first?["counts"] as? [String: [String: Int]], "counts recorded: \(listed)")
        // The row keeps run-finished's stages, and its states under "states".
        XCTAssertEqual(counts.removeValue(forKey: "states"), try XCTUnwrap(events.last?["states"] as? [String: Int]), "the row's states are run-finished's")
        XCTAssertEqual(counts, try XCTUnwrap(events.last?["stages"] as? [String: [String: Int]]), "the row's counts are run-finished's")
        for stage in stages {
            let skipped = steps.filter { $0["stage"] as? String == stage && $0["status"] as? String == "skipped" }.count
            XCTAssertEqual(counts[stage]?["skipped"], skipped, "\(stage): the row counts each skipped event")
            XCTAssertGreaterThan(skipped, 0, "\(stage): the photos of the first run were up to date")
        }
    }

    func testANoOpRunKilledBeforeItEndsShowsItsSkippedStepsAsNotCounted() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try makeJob(in: folder)
        XCTAssertEqual(try TestSupport.album(["run", "job.yml"], in: folder).status, 0)
        let run = try startBlockedRun(in: folder)
        _ = run.events.next(byteByByte: true)
        XCTAssert(run.events.next(byteByByte: true)?.hasPrefix(#"{"event":"step""#) == true)
        kill(run.child.pid, SIGKILL)
        close(run.descriptor)
        XCTAssertEqual(run.child.wait(), .signalled(SIGKILL))

        // A reader shows the killed run as running; skipped is '?', not a number album never counted.
        let text = try TestSupport.album(["runs"], in: folder)
        XCTAssertNotNil(text.stdout.range(of: #"\n  2  nightly  running +\S+ \S+ [+-]\S+ +- +0 +\? +0  "#, options: .regularExpression), text.stdout)
        XCTAssert(text.stderr.contains("skipped ?: run 2 recorded no counts (killed before the end, or still running)"), text.stderr)

        // The next writer marks it interrupted; its counts still come from its rows, with skipped null.
        let rerun = try TestSupport.album(["run", "job.yml"], in: folder)
        XCTAssertEqual(rerun.status, 0, rerun.stderr)
        let killed = try XCTUnwrap(runs(in: folder).first { $0["id"] as? Int == 2 })
        XCTAssertEqual(killed["status"] as? String, "interrupted")
        let counts = try XCTUnwrap(killed["counts"] as? [String: [String: Any]], "\(killed)")
        XCTAssertEqual(Set(counts.keys), Set(stages))
        for stage in stages {
            XCTAssertEqual(counts[stage]?["done"] as? Int, 0, stage)
            XCTAssert(counts[stage]?["skipped"] is NSNull, "\(stage): \(counts)")
            XCTAssertEqual(counts[stage]?["failed"] as? Int, 0, stage)
        }
        let rerunCounts = try XCTUnwrap(runs(in: folder).first?["counts"] as? [String: [String: Int]])
        XCTAssertEqual(rerunCounts["export"], ["done": 0, "skipped": photoCount, "failed": 0], "nothing was left to do")
    }
}
