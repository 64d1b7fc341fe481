import Foundation
import XCTest
@testable import Core
@testable import Stages

/// What the command line says matches what happens (issue 29): a plan that cannot know says "up to"; a reader of
/// a read-only command's output that goes away ends it quietly; `--force`'s summary counts what it did.
final class CommandLineHonestyTests: XCTestCase {
    /// Six photos, two of them taken in 2020, and a job whose filter selects 2020 by `taken`.
    func makeDatedLibrary() throws -> String {
        let folder = try TestSupport.temporaryFolder(self)
        let dates = ["2020:05:01 10:00:00", "2020:11:30 08:15:00", "2019:05:01 10:00:00", "2021:01:02 12:00:00", nil, nil]
        for (i, date) in dates.enumerated() {
            try Fixture.jpeg(at: "\(folder)/photos/p\(i).jpg", width: 96, height: 64, taken: date, variant: i)
        }
        try TestSupport.write("""
            version: 1
            name: dated
            stages:
              - import: {from: photos}
              - filter: {preset: sepia, select: {taken: 2020-01-01..2020-12-31}}
              - thumbnail: {size: 32x32}
            """, to: "job.yml", in: folder)
        return folder
    }

    /// The plan's stage rows by stage name: the cells after the name.
    func planRows(_ text: String) -> [String: String] {
        var rows: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            for stage in StageRegistry.names where trimmed.hasPrefix(stage.rawValue + " ") {
                rows[stage.rawValue] = String(trimmed.dropFirst(stage.rawValue.count)).trimmingCharacters(in: .whitespaces)
            }
        }
        return rows
    }

    // MARK: - item 17: "up to" when only headers would say

    func testAPlanOnAFreshCatalogueSaysUpToWhenOnlyTheHeadersWouldSayAndTheRunStaysWithinIt() throws {
        let folder = try makeDatedLibrary()
        let plan = try TestSupport.album(["plan", "job.yml"], in: folder)
        XCTAssertEqual(plan.status, 0, plan.stderr)
        let rows = planRows(plan.stdout)
        XCTAssertEqual(rows["filter"], "up to 6           0         0", plan.stdout)
        XCTAssertEqual(rows["import"], "6           0         0", "import's count is certain:\n\(plan.stdout)")
        XCTAssertEqual(rows["thumbnail"], "6           0         0", "no select on the thumbnail:\n\(plan.stdout)")
        XCTAssert(plan.stdout.contains("up to: 6 of the files still to import are to do only if their header"), plan.stdout)

        let json = try TestSupport.album(["plan", "job.yml", "--json"], in: folder)
        XCTAssertEqual(json.status, 0, json.stderr)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let stages = try XCTUnwrap(object["stages"] as? [[String: Any]])
        let filter = try XCTUnwrap(stages.first { $0["stage"] as? String == "filter" })
        XCTAssertEqual(filter["to_do"] as? Int, 6)
        XCTAssertEqual(filter["to_do_if_header_matches"] as? Int, 6)
        XCTAssertEqual(stages.first { $0["stage"] as? String == "import" }?["to_do_if_header_matches"] as? Int, 0)
        let dryRun = try TestSupport.album(["run", "job.yml", "--dry-run"], in: folder)
        XCTAssertEqual(planRows(dryRun.stdout)["filter"], "up to 6           0         0", dryRun.stdout)

        // The run reads the headers: two photos of 2020 are toned, within the plan's "up to 6".
        let run = try TestSupport.album(["run", "job.yml", "--log-format", "json"], in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        let filtered = run.stdout.split(separator: "\n").filter { $0.contains(#""stage":"filter""#) && $0.contains(#""status":"done""#) }
        XCTAssertEqual(filtered.count, 2, run.stdout)

        // Once imported, the headers are in the catalogue: the plan knows, and says no "up to".
        let after = try TestSupport.album(["plan", "job.yml"], in: folder)
        XCTAssertEqual(planRows(after.stdout)["filter"], "0           2         4", after.stdout)
        XCTAssertFalse(after.stdout.contains("up to:"), after.stdout)
    }

    // MARK: - item 18: a closed pipe ends a read-only command quietly

    /// Runs album with its stdout on a pipe whose reader is already gone, so that its first write fails with EPIPE
    /// (`album plan … | head -3` once head has its lines, made exact).
    func albumIntoAClosedPipe(_ arguments: [String], in folder: String) throws -> (ending: Spawn.Ending, log: String) {
        let pipe = try Spawn.pipe()
        close(pipe.read)
        let log = folder + "/stderr.txt"
        let child = try Spawn(arguments, in: folder, stdout: .descriptor(pipe.write), stderr: .log(log))
        close(pipe.write)
        let ending = child.wait()
        return (ending, (try? String(contentsOfFile: log, encoding: .utf8)) ?? "")
    }

    func testAReaderThatGoesAwayEndsAReadOnlyCommandQuietlyWithItsOwnStatus() throws {
        let folder = try makeDatedLibrary()
        let run = try TestSupport.album(["run", "job.yml"], in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        for command in [["plan", "job.yml"], ["plan", "job.yml", "--json", "-v"], ["run", "job.yml", "--dry-run"], ["ls"],
                        ["ls", "--json"], ["runs"], ["show", "photos/p0.jpg"], ["check", "job.yml"], ["parse", "job.yml"],
                        ["verify"], ["completion", "bash"], ["help"], ["plan", "--help"]] {
            let (ending, log) = try albumIntoAClosedPipe(command, in: folder)
            XCTAssertEqual(ending, .exited(0), "album \(command.joined(separator: " ")):\n\(log)")
            XCTAssertFalse(log.contains("output closed"), "album \(command.joined(separator: " ")) ends quietly:\n\(log)")
        }
        // A command that writes still says its report was cut: gc's count went nowhere.
        let gc = try albumIntoAClosedPipe(["gc", "--json"], in: folder)
        XCTAssertEqual(gc.ending, .exited(3), gc.log)
        XCTAssert(gc.log.contains("album: error: output closed: standard output closed (Broken pipe)"), gc.log)
    }

    // MARK: - item 20: --force counts what it did

    func testForceCountsTheExportsItRenderedAgainAsDone() throws {
        let folder = try TestSupport.temporaryFolder(self)
        for i in 0..<3 { try Fixture.jpeg(at: "\(folder)/photos/p\(i).jpg", width: 96, height: 64, variant: i) }
        try TestSupport.write("""
            version: 1
            name: forced
            stages:
              - import: {from: photos}
              - thumbnail: {size: 32x32}
              - export: {to: "out/{name}.jpg"}
            """, to: "job.yml", in: folder)
        let first = try TestSupport.album(["run", "job.yml"], in: folder)
        XCTAssertEqual(first.status, 0, first.stderr)
        let forced = try TestSupport.album(["run", "job.yml", "--force", "--log-format", "json"], in: folder)
        XCTAssertEqual(forced.status, 0, forced.stderr)
        let exports = forced.stdout.split(separator: "\n").filter { $0.contains(#""event":"step""#) && $0.contains(#""stage":"export""#) }
        XCTAssertEqual(exports.count, 3, forced.stdout)
        XCTAssert(exports.allSatisfy { $0.contains(#""status":"done""#) }, "each export rendered again is done:\n\(exports.joined(separator: "\n"))")
        let text = try TestSupport.album(["run", "job.yml", "--force"], in: folder)
        let row = try XCTUnwrap(text.stderr.split(separator: "\n").first { $0.hasPrefix("  export ") }, text.stderr)
        let cells = row.split(separator: " ")
        XCTAssertEqual(Array(cells[1...3]), ["3", "0", "0"], "export: 3 done, 0 skipped, 0 failed:\n\(text.stderr)")
        // Without --force nothing is rendered: all skipped, as before.
        let again = try TestSupport.album(["run", "job.yml"], in: folder)
        let skipped = try XCTUnwrap(again.stderr.split(separator: "\n").first { $0.hasPrefix("  export ") }, again.stderr)
        XCTAssertEqual(Array(skipped.split(separator: " ")[1...3]), ["0", "3", "0"], again.stderr)
    }
}
