import XCTest
import SQLite
@testable import Core
@testable import Catalogue

/// docs/events.md's promise, under `kill -9`: a `done` or `failed` step event that reached stdout has its row in
/// the catalogue, whenever the process dies.
///
/// Each run is killed just after the test has read its k-th event line (k seeded, from 1 to the line count of a
/// whole run), so the kills land where the run really is, on a loaded machine too. Only runs that `waitpid` says
/// ended by SIGKILL count as kills. `ALBUM_DURABLE_SEED` replays a sequence; `ALBUM_SOAK=1` kills 100 runs.
final class DurableEventTests: XCTestCase {
    let photoCount = 24

    /// Photos, two files that are not images (failed imports), and a job whose every step is redone with --force.
    func makeAlbum(in folder: String) throws {
        for index in 0..<photoCount {
            try Fixture.jpeg(at: "\(folder)/photos/p\(index).jpg", width: 120 + 6 * index, height: 90,
                             taken: index % 3 == 0 ? "2008:04:10 12:00:00" : nil, variant: index)
        }
        try TestSupport.write("<html>not a photo</html>", to: "photos/page.jpg", in: folder)
        try TestSupport.write("", to: "photos/empty.jpg", in: folder)
        try TestSupport.write("""
            version: 1
            name: durable
            stages:
              - import: {from: photos}
              - filter: {preset: sepia, select: {taken: 2008-04-01..2008-04-30}}
              - thumbnail: {size: 64x64}
              - export: {from: thumbnail, to: "out/{name}.jpg"}
            """, to: "job.yml", in: folder)
    }

    struct Event: Hashable {
        var stage: String
        var path: String
        var status: String
    }

    /// The run id of a `run-started` line, and the done/failed `step` events among `lines`.
    func durableSteps(_ lines: [String]) throws -> (run: Int?, steps: [Event]) {
        var run: Int?
        var steps: [Event] = []
        for line in lines {
            guard case .object(let members)? = JSONValue(parsing: line) else {
                XCTFail("not a JSON event: \(line)")
                continue
            }
            let field = { (name: String) in members.first { $0.0 == name }?.1 }
            if case .string("run-started")? = field("event"), case .int(let id)? = field("run") { run = id }
            guard case .string("step")? = field("event"), case .string(let stage)? = field("stage"),
                  case .string(let path)? = field("path"), case .string(let status)? = field("status") else { continue }
            if status == "done" || status == "failed" { steps.append(Event(stage: stage, path: path, status: status)) }
        }
        return (run, steps)
    }

    /// The committed step rows of `run`, counted per stage, path and status, through a read-only connection.
    func committedSteps(run: Int, in folder: String) throws -> [Event: Int] {
        let database = try Database(path: folder + "/album/" + Catalogue.databaseName, mode: .readOnly)
        defer { database.close() }
        let rows = try database.query("SELECT stage, path, status, count(*) FROM steps WHERE run = ? GROUP BY 1, 2, 3",
                                      [.integer(Int64(run))]) { row in
            (Event(stage: row.text(0) ?? "", path: row.text(1) ?? "", status: row.text(2) ?? ""), row.int(3) ?? 0)
        }
        return Dictionary(rows, uniquingKeysWith: +)
    }

    /// Starts `album run --log-format json` with stdout on a pipe the test reads.
    func start(in folder: String) throws -> (child: Spawn, events: LineReader, descriptor: Int32) {
        let pipe = try Spawn.pipe()
        let child = try Spawn(["run", "job.yml", "--workers", "2", "--force", "--log-format", "json"], in: folder,
                              stdout: .descriptor(pipe.write), stderr: .null)
        close(pipe.write)
        return (child, LineReader(pipe.read), pipe.read)
    }

    func testEveryDoneOrFailedEventOfAKilledRunHasItsRowCommitted() throws {
        let environment = ProcessInfo.processInfo.environment
        let soak = environment["ALBUM_SOAK"] == "1"
        let seed = environment["ALBUM_DURABLE_SEED"].flatMap { UInt64($0) } ?? 0xD0_2008
        var random = SplitMix64(state: seed)
        let folder = try TestSupport.temporaryFolder(self)
        try makeAlbum(in: folder)

        // A whole run, to learn how many lines one writes (and to check the promise where nothing is killed).
        let whole = try start(in: folder)
        let lines = whole.events.rest()
        close(whole.descriptor)
        XCTAssertEqual(whole.child.wait(), .exited(1), "two files are not images")
        let (wholeRun, wholeSteps) = try durableSteps(lines)
        XCTAssertEqual(wholeSteps.filter { $0.status == "failed" }.count, 2)
        XCTAssertGreaterThan(wholeSteps.count, photoCount * 3, "each photo is imported, thumbnailed and exported")
        let rows = try committedSteps(run: try XCTUnwrap(wholeRun), in: folder)
        XCTAssertEqual(Dictionary(wholeSteps.map { ($0, 1) }, uniquingKeysWith: +), rows.filter { $0.key.status != "skipped" })

        let wanted = soak ? 100 : 8
        var kills = 0, attempts = 0
        while kills < wanted, attempts < wanted * 2 {
            attempts += 1
            let k = 1 + random.below(lines.count)
            let run = try start(in: folder)
            var read: [String] = []
            while read.count < k, let line = run.events.next() { read.append(line) }
            kill(run.child.pid, SIGKILL)
            read += run.events.rest()  // what album wrote before it died reached stdout too
            close(run.descriptor)
            let ending = run.child.wait()
            if ending == .signalled(SIGKILL) { kills += 1 } else { XCTAssertEqual(ending, .exited(1), "attempt \(attempts)") }
            let context = "attempt \(attempts), killed after line \(k) of \(lines.count) (seed \(seed), \(ending))"
            let (id, steps) = try durableSteps(read)
            let committed = try committedSteps(run: try XCTUnwrap(id, context), in: folder)
            var announced: [Event: Int] = [:]
            for step in steps { announced[step, default: 0] += 1 }
            for (step, count) in announced {
                XCTAssertLessThanOrEqual(count, committed[step] ?? 0, "\(step) was announced without its row: \(context)")
            }
            if testRun.map({ $0.failureCount > 0 }) ?? false { break }  // the first broken run is the one to read
        }
        print("DurableEventTests: \(attempts) runs, \(kills) ended by SIGKILL, seed \(seed)")
        XCTAssertGreaterThanOrEqual(kills, wanted, "runs that really ended by SIGKILL")

        // The rerun completes every photo, and no killed run is left `running`.
        let rerun = try TestSupport.album(["run", "job.yml", "--workers", "2"], in: folder)
        XCTAssertEqual(rerun.status, 1, rerun.stderr)
        let exported = try FileManager.default.contentsOfDirectory(atPath: folder + "/out").filter { $0.hasSuffix(".jpg") }
        XCTAssertEqual(exported.count, photoCount)
        let database = try Database(path: folder + "/album/" + Catalogue.databaseName, mode: .readOnly)
        defer { database.close() }
        XCTAssertEqual(try database.query("SELECT count(*) FROM runs WHERE status = 'running'") { $0.int(0) }, [0])
    }

    /// `run-finished` is written after the run's row has its end: killed the moment the event is read, the run is
    /// recorded with the event's status, not left `running`.
    func testRunFinishedAnnouncesARecordedRun() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try makeAlbum(in: folder)
        for attempt in 1...3 {
            let run = try start(in: folder)
            var last = ""
            while let line = run.events.next() {
                last = line
                if line.hasPrefix("{\"event\":\"run-finished\"") { kill(run.child.pid, SIGKILL); break }
            }
            _ = run.events.rest()
            close(run.descriptor)
            _ = run.child.wait()
            guard case .object(let members)? = JSONValue(parsing: last), case .string("run-finished")? = members.first(where: { $0.0 == "event" })?.1,
                  case .int(let id)? = members.first(where: { $0.0 == "run" })?.1,
                  case .string(let status)? = members.first(where: { $0.0 == "status" })?.1 else {
                return XCTFail("attempt \(attempt): the last event is not run-finished: \(last)")
            }
            let database = try Database(path: folder + "/album/" + Catalogue.databaseName, mode: .readOnly)
            defer { database.close() }
            XCTAssertEqual(try database.query("SELECT status FROM runs WHERE id = ?", [.integer(Int64(id))]) { $0.text(0) }, [status],
                           "attempt \(attempt)")
        }
    }
}
