import Foundation
import XCTest
@testable import AlbumKit
import SQLite

/// docs/scheduler.md's "Stopping" table and "What people see", end to end through the built binary: SIGTERM, the
/// second signal, `--max-failures`, the progress line and `NO_COLOR`; and the grace period, in-process.
///
/// Each test synchronises on what album itself writes (its JSON events, its stderr), never on a sleep. Where the
/// test must know that album cannot have finished yet, it keeps album's stdout pipe full, so album waits on its
/// own output.
final class SignalTests: XCTestCase {
    /// Linux's F_SETPIPE_SZ (<fcntl.h> with _GNU_SOURCE, which Swift's Glibc module does not define).
    static let setPipeSize: Int32 = 1031

    /// `count` photos (size × 2/3 size, each its own size so no two are one photo) and a job that exports them at
    /// full size; names sort after `a-…`, so files named so come first with one worker.
    func makeAlbum(in folder: String, photos count: Int, size: Int) throws {
        for i in 0..<count {
            try Fixture.jpeg(at: String(format: "\(folder)/photos/p%03d.jpg", i), width: size + i, height: size * 2 / 3, variant: i)
        }
        try TestSupport.write("""
            version: 1
            stages:
              - import: {from: photos}
              - thumbnail: {size: 64x64}
              - export: {from: image, to: "out/{name}.jpg"}
            """, to: "job.yml", in: folder)
    }

    /// A running `album run job.yml --workers 1 --log-format json` with stdout on a one-page pipe and stderr on a
    /// pipe, both read by the test.
    final class Run {
        let child: Spawn
        let stdout: (read: Int32, write: Int32)
        let stderr: (read: Int32, write: Int32)
        let events: LineReader

        init(in folder: String, _ extra: [String] = []) throws {
            stdout = try Spawn.pipe()
            stderr = try Spawn.pipe()
            // One page: album waits on its output soon after the test stops reading.
            _ = fcntl(stdout.write, SignalTests.setPipeSize, 4096)
            child = try Spawn(["run", "job.yml", "--workers", "1", "--log-format", "json"] + extra, in: folder,
                              stdout: .descriptor(stdout.write), stderr: .descriptor(stderr.write))
            close(stdout.write)
            close(stderr.write)
            events = LineReader(stdout.read)
        }

        /// Reads event lines until one contains every one of `fragments`; returns the lines read, that one last.
        func read(until fragments: String...) -> [String] {
            var lines: [String] = []
            while let line = events.next() {
                lines.append(line)
                if fragments.allSatisfy(line.contains) { break }
            }
            return lines
        }

        /// Everything left on stdout, to its end.
        func rest() -> [String] {
            defer { close(stdout.read) }
            return events.rest()
        }

        /// stderr to its end, or what came before `seconds` passed without album ending (a bound for a broken build,
        /// not a synchronisation: the passing run ends by itself). Returns the text and whether it ended.
        func standardError(boundedBy seconds: Int32) -> (text: String, ended: Bool) {
            var bytes: [UInt8] = []
            defer { close(stderr.read) }
            while true {
                var ready = pollfd(fd: stderr.read, events: Int16(POLLIN), revents: 0)
                let polled = poll(&ready, 1, seconds * 1000)
                if polled < 0, errno == EINTR { continue }
                guard polled > 0 else { return (String(decoding: bytes, as: UTF8.self), false) }
                var chunk = [UInt8](repeating: 0, count: 4096)
                let count = chunk.withUnsafeMutableBytes { Glibc.read(stderr.read, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                if count <= 0 { return (String(decoding: bytes, as: UTF8.self), true) }
                bytes += chunk[..<count]
            }
        }

        /// Fills album's stdout pipe through a descriptor of the test's own (the pipe opened anew through /proc, so
        /// that O_NONBLOCK is the test's alone), so that album's next write waits.
        func fillStandardOutput() throws {
            let filler = open("/proc/\(child.pid)/fd/1", O_WRONLY | O_NONBLOCK | O_CLOEXEC)
            guard filler >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            defer { close(filler) }
            let newlines = [UInt8](repeating: 0x0A, count: 512)
            while newlines.withUnsafeBytes({ write(filler, $0.baseAddress, $0.count) }) > 0 {}
            XCTAssertEqual(errno, EAGAIN, "the pipe is full")
        }

        /// Waits until one of album's threads is blocked writing to a pipe, as the kernel says
        /// (`/proc/PID/task/TID/wchan`); false if that has not happened after about `seconds`. The short pauses
        /// between looks are a back-off, not the synchronisation: what is waited for is album's own state.
        func waitUntilBlockedOnAPipe(boundedBy seconds: Int) -> Bool {
            for _ in 0..<(seconds * 500) {
                let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(child.pid)/task")) ?? []
                for task in tasks {
                    let wchan = (try? String(contentsOfFile: "/proc/\(child.pid)/task/\(task)/wchan", encoding: .utf8)) ?? ""
                    if wchan.contains("pipe_write") { return true }
                }
                usleep(2_000)
            }
            return false
        }
    }

    func json(_ line: String) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
    }

    func testSIGTERMFinishesThePhotoInFlightRecordsTheRunInterruptedAndExits143() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try makeAlbum(in: folder, photos: 40, size: 1000)
        let run = try Run(in: folder)
        var lines = run.read(until: #""event":"step""#, #""status":"done""#)
        // Stdout is not read now: album soon waits on it, so it cannot be through its 30 photos when the signal comes.
        kill(run.child.pid, SIGTERM)
        lines += run.rest()
        _ = run.standardError(boundedBy: 120)
        XCTAssertEqual(run.child.wait(), .exited(143), "SIGTERM's status (128 + 15)")
        let events = lines.compactMap(json)
        let stopping = try XCTUnwrap(events.first { $0["event"] as? String == "stopping" })
        XCTAssert((stopping["reason"] as? String)?.hasPrefix("SIGTERM received") == true, "\(stopping)")
        let finished = try XCTUnwrap(events.last)
        XCTAssertEqual(finished["event"] as? String, "run-finished", "a first signal still ends with the summary")
        XCTAssertEqual(finished["status"] as? String, "interrupted")
        XCTAssertEqual(finished["exit"] as? Int, 143)
        let exported = try FileManager.default.contentsOfDirectory(atPath: folder + "/out").filter { !$0.hasPrefix(".") }
        XCTAssertLessThan(exported.count, 40, "no new photo started after the signal")
        XCTAssertEqual(try Tool.sqlite(folder + "/album/catalogue.db", "SELECT status FROM runs"), "interrupted")
        XCTAssertEqual(try Tool.sqlite(folder + "/album/catalogue.db", "SELECT count(*) FROM steps WHERE stage = 'export' AND status = 'done'"),
                       "\(exported.count)", "every export written is recorded: the photo in flight finished")

        let rerun = try TestSupport.album(["run", "job.yml"], in: folder)
        XCTAssertEqual(rerun.status, 0, rerun.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder + "/out").filter { !$0.hasPrefix(".") }.count, 40)
    }

    func testASecondSignalEndsAlbumAtOnceEvenWhileItWaitsOnItsOutput() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try makeAlbum(in: folder, photos: 30, size: 300)
        let run = try Run(in: folder)
        var lines = run.read(until: #""event":"step""#, #""status":"done""#)
        kill(run.child.pid, SIGINT)
        lines += run.read(until: #""event":"stopping""#)
        // The first signal is taken. Now album cannot write another line, its summary included, so it cannot end by
        // itself: only the second signal can end it.
        try run.fillStandardOutput()
        XCTAssertTrue(run.waitUntilBlockedOnAPipe(boundedBy: 60), "album waits on its full stdout")
        kill(run.child.pid, SIGINT)
        let stderr = run.standardError(boundedBy: 60)
        XCTAssertTrue(stderr.ended, "the second signal ended album, though it was waiting on its output; stderr: \(stderr.text)")
        lines += run.rest()  // lets a broken album go on, so the test ends either way
        XCTAssertEqual(run.child.wait(), .exited(130), "SIGINT's status (128 + 2)")
        XCTAssert(stderr.text.contains("album: stopped at once by a second signal"), stderr.text)
        let events = lines.compactMap(json)
        XCTAssertFalse(events.contains { $0["event"] as? String == "run-finished" }, "ended at once: no summary")
        // Read through SQLite's WAL (album ended without checkpointing), read-only.
        let database = try Database(path: folder + "/album/" + Catalogue.databaseName, mode: .readOnly)
        XCTAssertEqual(try database.query("PRAGMA integrity_check") { $0.text(0) }, ["ok"])
        XCTAssertEqual(try database.query("SELECT status FROM runs") { $0.text(0) }, ["running"],
                       "the run row was not finished; the next writer marks it interrupted")
        database.close()

        let rerun = try TestSupport.album(["run", "job.yml"], in: folder)
        XCTAssertEqual(rerun.status, 0, rerun.stderr)
        XCTAssertEqual(try Tool.sqlite(folder + "/album/catalogue.db", "SELECT group_concat(status) FROM (SELECT status FROM runs ORDER BY id)"),
                       "interrupted,ok")
    }

    func testMaxFailuresStopsStartingPhotosAfterTheNthFailure() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try makeAlbum(in: folder, photos: 4, size: 100)
        for i in 0..<5 { try TestSupport.write("<html>\(i)</html>", to: "photos/a\(i).jpg", in: folder) }
        let result = try TestSupport.album(["run", "job.yml", "--workers", "1", "--max-failures", "2", "--log-format", "json"], in: folder)
        XCTAssertEqual(result.status, 1, result.stderr)
        let events = result.stdout.split(separator: "\n").compactMap { json(String($0)) }
        let steps = events.filter { $0["event"] as? String == "step" }
        XCTAssertEqual(steps.map { ($0["path"] as? String ?? "").suffix(6) }, ["a0.jpg", "a1.jpg"],
                       "one worker takes the files in order and starts none after the second failure")
        XCTAssertEqual(steps.map { $0["status"] as? String }, ["failed", "failed"])
        XCTAssertNotNil(events.first { $0["event"] as? String == "stopping" })
        XCTAssertEqual(events.last?["status"] as? String, "failed")
        XCTAssertEqual(events.last?["exit"] as? Int, 1)
        XCTAssertEqual(try Tool.sqlite(folder + "/album/catalogue.db", "SELECT count(*) FROM steps"), "2")

        // Without the limit every file is tried: five failures, four photos done.
        let all = try TestSupport.album(["run", "job.yml", "--workers", "1", "--log-format", "json"], in: folder)
        XCTAssertEqual(all.status, 1)
        let counts = all.stdout.split(separator: "\n").compactMap { json(String($0)) }.last?["stages"] as? [String: [String: Int]]
        XCTAssertEqual(counts?["import"], ["done": 4, "skipped": 0, "failed": 5])
    }
}
