import XCTest
import SQLite
@testable import Core
@testable import Catalogue

/// album's stdout and stderr closed, full (/dev/full) or broken (a reader that goes away), end to end through the
/// built binary: every case ends with the status README.md documents, never by a signal; the run is recorded, not
/// left `running`; nothing but the lock's own line is ever in `catalogue.lock`; and a rerun completes every photo.
///
/// The documented statuses: `album run` stops, records the run as interrupted and exits 3 when a write to its own
/// output fails (stdout for `--log-format json`, stderr for text); a command that only prints exits 3 when any
/// write to stdout or stderr fails.
final class OutputStreamTests: XCTestCase {
    let photoCount = 16

    func makeAlbum(in folder: String) throws {
        for index in 0..<photoCount {
            try Fixture.jpeg(at: "\(folder)/photos/p\(index).jpg", width: 96 + 4 * index, height: 64, variant: index)
        }
        try TestSupport.write("""
            version: 1
            name: streams
            stages:
              - import: {from: photos}
              - thumbnail: {size: 48x48}
              - export: {from: thumbnail, to: "out/{name}.jpg"}
            """, to: "job.yml", in: folder)
    }

    /// The runs' statuses, newest first, read with a read-only connection of the test's own.
    func runStatuses(_ folder: String) throws -> [String] {
        let database = try Database(path: folder + "/album/" + Catalogue.databaseName, mode: .readOnly)
        defer { database.close() }
        return try database.query("SELECT status FROM runs ORDER BY id DESC") { $0.text(0) ?? "NULL" }
    }

    /// The lock file holds nothing, or the one line CatalogueLock writes: "PID TIMESTAMP\n".
    func assertLockFileIsTheLocks(_ folder: String, _ context: String) throws {
        let text = try String(contentsOfFile: folder + "/album/" + CatalogueLock.fileName, encoding: .utf8)
        let lockLine = #/^[0-9]+ [0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z\n$/#
        XCTAssertTrue(text.isEmpty || text.wholeMatch(of: lockLine) != nil, "catalogue.lock after \(context): \(text.debugDescription)")
    }

    /// Runs album with one stream set up as `descriptor`, the other to a log file; returns how it ended and the log.
    func album(_ arguments: [String], in folder: String, stdout: Spawn.Descriptor? = nil,
               stderr: Spawn.Descriptor? = nil) throws -> (ending: Spawn.Ending, log: String) {
        let log = folder + "/log.txt"
        let child = try Spawn(arguments, in: folder, stdout: stdout ?? .log(log), stderr: stderr ?? .log(log))
        let ending = child.wait()
        return (ending, (try? String(contentsOfFile: log, encoding: .utf8)) ?? "")
    }

    func testClosedAndFullStreamsEndWithTheDocumentedStatusAndTheRunRecorded() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try makeAlbum(in: folder)
        let setups: [(name: String, stdout: Spawn.Descriptor?, stderr: Spawn.Descriptor?, failing: Console.Stream,
                      errno: String)] = [
            ("stdout closed", .closed, nil, .standardOutput, "Bad file descriptor"),
            ("stdout on /dev/full", .full, nil, .standardOutput, "No space left on device"),
            ("stderr closed", nil, .closed, .standardError, "Bad file descriptor"),
            ("stderr on /dev/full", nil, .full, .standardError, "No space left on device"),
        ]
        for setup in setups {
            // The JSON run's output is stdout; the text run's (its summary) is stderr. Neither fails a photo, so
            // the other stream is never written.
            for format in ["json", "text"] {
                let context = "run --log-format \(format), \(setup.name)"
                let stops = (format == "json") == (setup.failing == .standardOutput)
                let (ending, log) = try album(["run", "job.yml", "--force", "--workers", "2", "--log-format", format],
                                              in: folder, stdout: setup.stdout, stderr: setup.stderr)
                XCTAssertEqual(ending, .exited(stops ? 3 : 0), "\(context):\n\(log)")
                let latest = try XCTUnwrap(runStatuses(folder).first)
                // JSON's first event fails, before any photo: interrupted. Text's summary is its first write, after
                // the last photo: the run is complete and recorded as such.
                XCTAssertEqual(latest, stops && format == "json" ? "interrupted" : "ok", context)
                if stops && setup.failing == .standardOutput {
                    XCTAssertTrue(log.contains("album: stopped: standard output closed (\(setup.errno)); the run is recorded as interrupted"),
                                  "\(context):\n\(log)")
                }
                XCTAssertFalse(try runStatuses(folder).contains("running"), context)
                try assertLockFileIsTheLocks(folder, context)
            }
            for command in [["ls"], ["runs"], ["ls", "--json"], ["runs", "--json"]] {
                let context = "\(command.joined(separator: " ")), \(setup.name)"
                let (ending, log) = try album(command, in: folder, stdout: setup.stdout, stderr: setup.stderr)
                // Each writes its listing to stdout and its count (or nothing, for --json) to stderr.
                let writesStderr = !command.contains("--json")
                let fails = setup.failing == .standardOutput || writesStderr
                XCTAssertEqual(ending, .exited(fails ? 3 : 0), "\(context):\n\(log)")
                if setup.failing == .standardOutput {
                    XCTAssertTrue(log.contains("album: error: output closed: standard output closed (\(setup.errno))"), "\(context):\n\(log)")
                }
            }
        }
        // With every stream working, the catalogue lists every photo and a rerun has nothing left to do.
        let rerun = try TestSupport.album(["run", "job.yml"], in: folder)
        XCTAssertEqual(rerun.status, 0, rerun.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder + "/out").filter { $0.hasSuffix(".jpg") }.count, photoCount)
        XCTAssertFalse(try runStatuses(folder).contains("running"))
        try assertLockFileIsTheLocks(folder, "the rerun")
    }

    /// `album run … | head -1`, made exact: a pipe of one page whose reader takes one line and closes it. album's
    /// events are more than a page, so album must write to the closed pipe (EPIPE), however the threads are timed.
    func testAReaderThatGoesAwayStopsTheRunWhichIsRecordedAsInterruptedAndTheRerunCompletesIt() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try makeAlbum(in: folder)
        let pipe = try Spawn.pipe()
        // F_SETPIPE_SZ (1031, <linux/fcntl.h>; not exported to Swift) to one page, the smallest the kernel allows.
        let capacity = fcntl(pipe.write, 1031, 4096)
        XCTAssertGreaterThan(capacity, 0)
        let child = try Spawn(["run", "job.yml", "--workers", "2", "--log-format", "json"], in: folder,
                              stdout: .descriptor(pipe.write), stderr: .log(folder + "/log.txt"))
        close(pipe.write)
        let first = try XCTUnwrap(LineReader(pipe.read).next(byteByByte: true))
        close(pipe.read)
        let ending = child.wait()
        let log = try String(contentsOfFile: folder + "/log.txt", encoding: .utf8)
        XCTAssertTrue(first.hasPrefix(#"{"event":"run-started""#), first)
        XCTAssertEqual(ending, .exited(3), log)
        XCTAssertTrue(log.contains("album: stopped: standard output closed (Broken pipe); the run is recorded as interrupted"), log)
        XCTAssertEqual(try runStatuses(folder), ["interrupted"])
        try assertLockFileIsTheLocks(folder, "the broken pipe")

        // The rerun completes every photo; its events, with nothing cut, are more than the pipe held (the
        // premise above), since it writes at least one step per photo and the run-finished line.
        let rerun = try TestSupport.album(["run", "job.yml", "--workers", "2", "--log-format", "json"], in: folder)
        XCTAssertEqual(rerun.status, 0, rerun.stderr)
        XCTAssertGreaterThan(rerun.stdout.utf8.count, Int(capacity) + first.utf8.count + 1, "the test's premise")
        let exported = try FileManager.default.contentsOfDirectory(atPath: folder + "/out").filter { $0.hasSuffix(".jpg") }
        XCTAssertEqual(exported.count, photoCount)
        XCTAssertEqual(try runStatuses(folder), ["ok", "interrupted"])
    }
}
