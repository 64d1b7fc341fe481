import XCTest
@testable import Core
@testable import Stages

/// Issue 19, "a summary that is true", and `run -q`, through the built binary: one duration, each stage's own busy
/// time and pace, the job's own run number beside the catalogue's id, and `caption` never taken for "the last run".
final class RunSummaryTextTests: XCTestCase {
    /// Three photos and a job that imports and thumbnails them.
    func makeFolder() throws -> String {
        let folder = try TestSupport.temporaryFolder(self)
        for i in 0..<3 { try Fixture.jpeg(at: "\(folder)/photos/p\(i).jpg", variant: i) }
        try TestSupport.write("version: 1\nname: nightly\nstages:\n  - import: {from: photos}\n  - thumbnail: {size: 64x64}\n",
                              to: "job.yml", in: folder)
        return folder
    }

    /// The summary's rows: stage name to its cells (done, skipped, failed, busy time, photos per busy s).
    func rows(_ stderr: String) -> [String: [String]] {
        var rows: [String: [String]] = [:]
        for line in stderr.split(separator: "\n") {
            let cells = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            guard cells.count == 7, StageRegistry.stepNames.map(\.rawValue).contains(String(cells[0])), Int(cells[1]) != nil, cells[5] == "s" else { continue }
            rows[cells[0]] = [cells[1], cells[2], cells[3], cells[4], cells[6]]
        }
        return rows
    }

    func testTheHeadlineSaysOneDurationAndTheJobsOwnRunNumberBesideTheCataloguesId() throws {
        let folder = try makeFolder()
        let first = try TestSupport.album(["run", "job.yml", "-j", "2"], in: folder)
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssert(first.stderr.contains("album: run 1 of job 'nightly' ok in "), first.stderr)
        XCTAssert(first.stderr.contains(" (catalogue run 1)"), first.stderr)
        // A caption is a write of the catalogue's (run 2 there), not a run of the job.
        let id = try TestSupport.album(["ls", "-q"], in: folder).stdout.split(separator: "\n")[0]
        let caption = try TestSupport.album(["caption", String(id), "dusk"], in: folder)
        XCTAssertEqual(caption.status, 0, caption.stderr)
        let second = try TestSupport.album(["run", "job.yml", "--force"], in: folder)
        XCTAssertEqual(second.status, 0, second.stderr)
        let headline = try XCTUnwrap(second.stderr.split(separator: "\n").first { $0.hasPrefix("album: run ") }.map(String.init))
        let pattern = try NSRegularExpression(pattern: #"^album: run 2 of job 'nightly' ok in [0-9]+\.[0-9] s \(catalogue run 3\)$"#)
        XCTAssertEqual(pattern.numberOfMatches(in: headline, range: NSRange(headline.startIndex..., in: headline)), 1,
                       "one duration, the job's run 2 and the catalogue's run 3: \(headline)")
        // Each stage's busy time is labelled, with the workers it is summed over.
        XCTAssert(second.stderr.contains("busy time: the stage's own work (its done and failed steps), summed over its 2 workers"), second.stderr)
        let table = rows(second.stderr)
        // --force redoes the thumbnails; the import of unchanged files only checks: nothing done, so no pace.
        XCTAssertEqual(table["thumbnail"]?[0], "3", second.stderr)
        XCTAssertEqual(table["import"]?[0], "0", second.stderr)
        XCTAssertEqual(table["import"]?[4], "-", "a stage that only skipped has no pace:\n\(second.stderr)")
        let pace = try XCTUnwrap(table["thumbnail"].flatMap { Double($0[4]) }, second.stderr)
        XCTAssertGreaterThan(pace, 0)
    }

    func testTheEventsCarryEachStagesBusySecondsWithinTheWorkersWallTime() throws {
        let folder = try makeFolder()
        let run = try TestSupport.album(["run", "job.yml", "-j", "2", "--log-format", "json"], in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        let last = try XCTUnwrap(run.stdout.split(separator: "\n").last.map(String.init))
        let event = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        XCTAssertEqual(event["event"] as? String, "run-finished")
        XCTAssertEqual(event["job_run"] as? Int, 1)
        XCTAssertEqual(event["workers"] as? Int, 2)
        let busy = try XCTUnwrap(event["busy_seconds"] as? [String: Double], last)
        let seconds = try XCTUnwrap(event["seconds"] as? Double)
        XCTAssertEqual(Set(busy.keys), ["import", "filter", "thumbnail", "export"])
        XCTAssertGreaterThan(busy["thumbnail"] ?? 0, 0, "three thumbnails made take time")
        XCTAssertEqual(busy["filter"], 0, "no filter stage, no busy time")
        // Two workers at most are busy at once: the stages' busy time fits in twice the run's (rounded to ms).
        XCTAssertLessThanOrEqual(busy.values.reduce(0, +), 2 * seconds + 0.01, last)
    }

    func testReportTakesTheLastJobRunNotACaption() throws {
        let folder = try makeFolder()
        XCTAssertEqual(try TestSupport.album(["run", "job.yml"], in: folder).status, 0)
        let id = try TestSupport.album(["ls", "-q"], in: folder).stdout.split(separator: "\n")[0]
        XCTAssertEqual(try TestSupport.album(["caption", String(id), "dusk"], in: folder).status, 0)
        let report = try TestSupport.album(["report", "--out", "r.html"], in: folder)
        XCTAssertEqual(report.status, 0, report.stderr)
        XCTAssert(report.stderr.contains("wrote the report of run 1 "), "run 1 is the job's, run 2 the caption:\n\(report.stderr)")
        let html = try String(contentsOfFile: folder + "/r.html", encoding: .utf8)
        XCTAssert(html.contains("<th>busy time</th><th>photos per busy s</th>"), "the report's stage table is labelled the same way")
        // Asked for by id, the caption's run is shown.
        let asked = try TestSupport.album(["report", "--run", "2", "--out", "c.html"], in: folder)
        XCTAssertEqual(asked.status, 0, asked.stderr)
        XCTAssert(asked.stderr.contains("wrote the report of run 2 "), asked.stderr)
    }

    func testQuietRunPrintsOnlyFailures() throws {
        let folder = try makeFolder()
        let quiet = try TestSupport.album(["run", "job.yml", "-q", "--progress=plain"], in: folder)
        XCTAssertEqual(quiet.status, 2, "-q hides what --progress asks for: \(quiet.stderr)")
        let ok = try TestSupport.album(["run", "job.yml", "-q"], in: folder)
        XCTAssertEqual(ok.status, 0, ok.stderr)
        XCTAssertEqual(ok.stderr, "", "no progress, no summary")
        XCTAssertEqual(ok.stdout, "")
        try Data("<html>not a photo</html>".utf8).write(to: URL(fileURLWithPath: folder + "/photos/bad.jpg"))
        let failed = try TestSupport.album(["run", "job.yml", "--quiet"], in: folder)
        XCTAssertEqual(failed.status, 1, failed.stderr)
        let lines = failed.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, "the one failure, as it happens, and nothing else:\n\(failed.stderr)")
        XCTAssert(lines.first?.hasPrefix("album: import failed: \(folder)/photos/bad.jpg") ?? false, failed.stderr)
        let help = try TestSupport.album(["run", "--help"], in: folder)
        XCTAssert(help.stdout.contains("-q, --quiet"), help.stdout)
    }

    func testEveryCommandWithNoCatalogueSaysWhereItLooked() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let environment = ["XDG_CONFIG_HOME": folder + "/no-config", "ALBUM_CATALOGUE": ""]
        for command in [["runs"], ["show", "ab"], ["verify"], ["gc"], ["prune"], ["caption", "ab", "x"], ["rm", "ab"], ["report", "--out", "r.html"]] {
            let result = try TestSupport.album(command, in: folder, environment: environment)
            XCTAssertEqual(result.status, 3, "\(command): \(result.stderr)")
            XCTAssert(result.stderr.contains("no catalogue at \(folder)/album. album looked, in order, at:"), "\(command): \(result.stderr)")
            XCTAssert(result.stderr.contains("ALBUM_CATALOGUE: not set"), "\(command): \(result.stderr)")
        }
        // Named with --catalogue, the folder is the user's own: no list of places.
        let named = try TestSupport.album(["runs", "-c", "elsewhere"], in: folder, environment: environment)
        XCTAssertEqual(named.status, 3, named.stderr)
        XCTAssert(named.stderr.contains("no catalogue at \(folder)/elsewhere: run a job"), named.stderr)
    }
}
