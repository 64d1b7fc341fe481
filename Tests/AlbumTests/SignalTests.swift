import Foundation
import XCTest
import SQLite
import Synchronization
@testable import Core
@testable import Catalogue
@testable import Stages
@testable import JobFile
@testable import Run
@testable import Commands

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

        /// Waits until `signal` is no longer pending for album (`ShdPnd` in `/proc/PID/status`): the kernel has
        /// delivered it to album's handler. False if that has not happened after about `seconds`.
        func waitUntilDelivered(_ signal: Int32, boundedBy seconds: Int) -> Bool {
            for _ in 0..<(seconds * 500) {
                let status = (try? String(contentsOfFile: "/proc/\(child.pid)/status", encoding: .utf8)) ?? ""
                let pending = status.split(separator: "\n").first { $0.hasPrefix("ShdPnd:") }
                    .flatMap { UInt64($0.dropFirst(7).trimmingCharacters(in: .whitespaces), radix: 16) } ?? ~0
                if pending & (1 << UInt64(signal - 1)) == 0 { return true }
                usleep(2_000)
            }
            return false
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

    /// A second signal ends album at once even while album waits on its output: the output is blocked before the
    /// first signal, so the first cannot even announce itself (its `stopping` event waits on the full pipe), and
    /// the second, sent once the first is delivered, must still end album. (A version that blocked the output only
    /// after the first signal's announcement was read could not hold on a loaded machine: album sometimes finished
    /// its photo in flight and its summary before the test could fill the pipe, so it was removed.)
    func twoSignalsEndABlockedAlbum(_ number: Int32, exit status: Int32) throws {
        let folder = try TestSupport.temporaryFolder(self)
        try makeAlbum(in: folder, photos: 30, size: 300)
        let run = try Run(in: folder)
        var lines = run.read(until: #""event":"step""#, #""status":"done""#)
        try run.fillStandardOutput()
        XCTAssertTrue(run.waitUntilBlockedOnAPipe(boundedBy: 60), "album waits on its full stdout")
        // The kernel keeps one pending signal of a kind, not two: the second is sent once the first was delivered.
        kill(run.child.pid, number)
        XCTAssertTrue(run.waitUntilDelivered(number, boundedBy: 60), "the first signal was delivered")
        kill(run.child.pid, number)
        let stderr = run.standardError(boundedBy: 60)
        XCTAssertTrue(stderr.ended, "two signals ended album, though it was waiting on its output; stderr: \(stderr.text)")
        lines += run.rest()
        XCTAssertEqual(run.child.wait(), .exited(status), "128 + the signal's number")
        XCTAssert(stderr.text.contains("album: stopped at once by a second signal"), stderr.text)
        XCTAssertFalse(lines.compactMap(json).contains { $0["event"] as? String == "run-finished" }, "ended at once: no summary")
        // Read through SQLite's WAL (album ended without checkpointing), read-only: sound, the run row unfinished.
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

    func testTwoSignalsEndAlbumAtOnceWhenItsOutputIsBlockedBeforeTheFirst() throws {
        try twoSignalsEndABlockedAlbum(SIGTERM, exit: 143)
    }

    func testTwoInterruptsEndAlbumAtOnceWhenItsOutputIsBlocked() throws {
        try twoSignalsEndABlockedAlbum(SIGINT, exit: 130)
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

    // MARK: What people see: the progress line and colour (docs/scheduler.md, "What people see")

    /// A pseudo-terminal (openpty): the test reads the master; album gets the slave as its stderr. Both close on exec,
    /// so only album's stderr holds the slave once the test closes its own.
    func openTerminal() throws -> (master: Int32, slave: Int32) {
        var master: Int32 = -1, slave: Int32 = -1
        guard openpty(&master, &slave, nil, nil, nil) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        for end in [master, slave] { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return (master, slave)
    }

    /// One `album run job.yml --force --log-format json` with stderr on a terminal or in a file; returns stderr's
    /// text and the JSON events (stdout, in a file).
    func runSeen(in folder: String, onTerminal: Bool, noColor: String?, extra: [String] = []) throws -> (stderr: String, events: [[String: Any]]) {
        let saved = getenv("NO_COLOR").map { String(cString: $0) }
        if let noColor { setenv("NO_COLOR", noColor, 1) } else { unsetenv("NO_COLOR") }
        defer { if let saved { setenv("NO_COLOR", saved, 1) } else { unsetenv("NO_COLOR") } }
        let arguments = ["run", "job.yml", "--workers", "1", "--force", "--log-format", "json"] + extra
        var text = ""
        let child: Spawn
        if onTerminal {
            let terminal = try openTerminal()
            defer { close(terminal.master) }
            child = try Spawn(arguments, in: folder, stdout: .log(folder + "/events.jsonl"), stderr: .descriptor(terminal.slave))
            close(terminal.slave)
            // Read until the last slave descriptor closes (read then fails with EIO): album has ended.
            var bytes: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(terminal.master, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                if count <= 0 { break }
                bytes += chunk[..<count]
            }
            text = String(decoding: bytes, as: UTF8.self)
        } else {
            child = try Spawn(arguments, in: folder, stdout: .log(folder + "/events.jsonl"), stderr: .log(folder + "/stderr.txt"))
        }
        XCTAssertEqual(child.wait(), .exited(1), "the broken file fails")
        if !onTerminal { text = try String(contentsOfFile: folder + "/stderr.txt", encoding: .utf8) }
        let events = try String(contentsOfFile: folder + "/events.jsonl", encoding: .utf8).split(separator: "\n").compactMap { json(String($0)) }
        // The progress timer ticked in this run (its JSON twin is written by the same tick): so the text reporter
        // had its chance to draw the line, and its absence means something.
        XCTAssertGreaterThan(events.filter { $0["event"] as? String == "progress" }.count, 0, "the run lasted past a tick")
        return (text, events)
    }

    /// `\r`, erase the line, then `album: DONE/41 photos  R.R/s  ETA …  1 failed`: the broken file came first.
    let progressLine = try! NSRegularExpression(pattern: #"\r\u001B\[2Kalbum: ([0-9]+)/41 photos  [0-9]+\.[0-9]/s(  ETA [0-9hms]+)?  1 failed"#)

    func progressLines(_ text: String) -> [Int] {
        progressLine.matches(in: text, range: NSRange(text.startIndex..., in: text)).map {
            Int(text[Range($0.range(at: 1), in: text)!])!
        }
    }

    func testTheProgressLineAndColourAreForATerminalAndNO_COLORTurnsColourOff() throws {
        let folder = try TestSupport.temporaryFolder(self)
        // 40 photos of noise, made by libvips' own command line: costly to decode and encode, so that every run lasts
        // past the progress timer's first tick (each run checks that it did, by its JSON progress events).
        try makeAlbum(in: folder, photos: 0, size: 0)
        try FileManager.default.createDirectory(atPath: folder + "/photos", withIntermediateDirectories: true)
        for i in 0..<40 {
            XCTAssertEqual(try Tool.run(["vips", "gaussnoise", "\(folder)/photos/n\(i).jpg[Q=90]", "1600", "1066"]).status, 0)
        }
        try TestSupport.write("<html>", to: "photos/a-broken.jpg", in: folder)
        let red = "\u{1B}[31malbum: import failed: \(folder)/photos/a-broken.jpg: not an image"

        let terminal = try runSeen(in: folder, onTerminal: true, noColor: nil)
        XCTAssert(terminal.stderr.contains(red), "a failure in red on a terminal:\n\(terminal.stderr.debugDescription)")
        let drawn = progressLines(terminal.stderr)
        XCTAssertFalse(drawn.isEmpty, "the progress line on a terminal:\n\(terminal.stderr.debugDescription)")
        XCTAssertEqual(drawn, drawn.sorted(), "done only grows")
        XCTAssert(drawn.allSatisfy { $0 <= 41 })

        let noColour = try runSeen(in: folder, onTerminal: true, noColor: "1")
        XCTAssertFalse(noColour.stderr.contains("\u{1B}[31m"), "NO_COLOR: no colour:\n\(noColour.stderr.debugDescription)")
        XCTAssert(noColour.stderr.contains("album: import failed: \(folder)/photos/a-broken.jpg: not an image"))
        XCTAssertFalse(progressLines(noColour.stderr).isEmpty, "NO_COLOR keeps the progress line")

        // An empty NO_COLOR is as good as none (no-color.org: "present and not an empty string").
        let empty = try runSeen(in: folder, onTerminal: true, noColor: "")
        XCTAssert(empty.stderr.contains(red), "NO_COLOR='' keeps colour")

        let piped = try runSeen(in: folder, onTerminal: false, noColor: nil)
        XCTAssertFalse(piped.stderr.contains("\u{1B}"), "not a terminal: no progress line, no colour:\n\(piped.stderr.debugDescription)")
        XCTAssert(piped.stderr.contains("album: import failed: \(folder)/photos/a-broken.jpg: not an image"), piped.stderr)

        // Off a terminal, --progress gives plain lines (CILogTests has the rest), never the redrawn line.
        let asked = try runSeen(in: folder, onTerminal: false, noColor: nil, extra: ["--progress"])
        XCTAssert(asked.stderr.contains("album: progress: "), "--progress gives plain lines:\n\(asked.stderr.debugDescription)")
        XCTAssertFalse(asked.stderr.contains("\u{1B}") || asked.stderr.contains("\r"), "no control sequence off a terminal")
    }

    // MARK: The grace period (in-process: its 10 s is not an option of the command line)

    /// A thumbnail stage that holds its photo until the test lets it go: the photo in flight, for as long as the
    /// test needs. It does no work of its own; the scheduler around it is the real one.
    struct HeldStage: PhotoStage {
        static let stage = StageName.thumbnail
        var parameters: JSONValue { .object([("held", .bool(true))]) }
        var select: Selection? = nil
        let entered: DispatchSemaphore
        let release: DispatchSemaphore

        func run(_ work: inout PhotoWork, context: StageContext) throws -> StepResult {
            entered.signal()
            release.wait()
            return .done(input: nil, output: nil)
        }

        func plan(_ work: inout PhotoWork, context: StageContext) throws -> Bool { false }
    }

    /// Runs 3 photos on one worker with a grace period of `grace` seconds; the first photo is held in its thumbnail
    /// stage when the stop (a SIGTERM's) is asked for, and let go at `releaseBeforeTheRunEnds` or only after.
    func runHeld(grace: Double, releaseBeforeTheRunEnds: Bool) throws -> (summary: RunSummary?, thumbnails: Int, job: Job) {
        let folder = try TestSupport.temporaryFolder(self)
        for i in 0..<3 { try Fixture.jpeg(at: "\(folder)/photos/p\(i).jpg", width: 64 + i, height: 48, variant: i) }
        try TestSupport.write("version: 1\nstages:\n  - import: {from: photos}\n", to: "job.yml", in: folder)
        var job = try JobLoader.load(path: folder + "/job.yml")
        let entered = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        job.stages = [HeldStage(entered: entered, release: release)]
        var options = RunOptions()
        options.workers = 1
        options.graceSeconds = grace
        let catalogue = try Catalogue(folder: job.catalogue, create: true, writing: true)
        defer { catalogue.close() }
        let run = try catalogue.beginRun(job: job.name, jobPath: nil, jobHash: nil, started: Timestamp.now(), software: .current)
        let scheduler = Scheduler(job: job, options: options, catalogue: catalogue, run: run, software: .current,
                                  observer: Reporters(all: []))
        let result = Mutex<RunSummary?>(nil), ended = DispatchSemaphore(value: 0)
        Thread { result.withLock { $0 = try? scheduler.runAll() }; ended.signal() }.start()
        entered.wait()  // the first photo is in flight, held
        scheduler.requestStop(.signal(SIGTERM))
        if releaseBeforeTheRunEnds { release.signal() }
        // A bound for a broken build (the run waits forever), not a synchronisation: a sound run ends by itself.
        let finished = ended.wait(timeout: .now() + 60) == .success
        XCTAssertTrue(finished, "the run ended")
        if !releaseBeforeTheRunEnds { release.signal() }
        if !finished { ended.wait() }
        let thumbnails = try catalogue.database.query("SELECT count(*) FROM steps WHERE stage = 'thumbnail'") { $0.int(0) ?? -1 }.first ?? -1
        return (result.withLock { $0 }, thumbnails, job)
    }

    func testAPhotoInFlightFinishesWithinTheGracePeriodAndIsAbandonedAfterIt() throws {
        XCTAssertEqual(RunOptions().graceSeconds, 10, "docs/scheduler.md: photos in flight get 10 s")

        // Let go at once, within a long grace period: it finishes and is recorded; no other photo starts.
        let within = try runHeld(grace: 600, releaseBeforeTheRunEnds: true)
        let kept = try XCTUnwrap(within.summary)
        XCTAssertFalse(kept.abandoned)
        XCTAssertEqual(kept.status, "interrupted")
        XCTAssertEqual(kept.stop?.exitCode, .terminated)
        XCTAssertEqual(within.thumbnails, 1, "the photo in flight finished and its step is recorded")
        XCTAssertEqual(kept.counts[.import]?[.done], 1, "no new photo started after the stop")

        // Held past a grace period of 0 s: the run ends without it, and records nothing of its thumbnail.
        let past = try runHeld(grace: 0, releaseBeforeTheRunEnds: false)
        let abandoned = try XCTUnwrap(past.summary)
        XCTAssertTrue(abandoned.abandoned, "the photo still in flight after the grace period was abandoned")
        XCTAssertEqual(abandoned.status, "interrupted")
        XCTAssertEqual(past.thumbnails, 0, "an abandoned photo has no row")
        XCTAssertEqual(abandoned.counts[.thumbnail]?[.done] ?? 0, 0, "and no count")
        XCTAssert(SummaryText.render(abandoned, job: past.job).contains("photos still in flight after the grace period were abandoned"),
                  "and the summary says so")
    }
}
