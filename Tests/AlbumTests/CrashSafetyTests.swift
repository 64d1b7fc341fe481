import XCTest
import SQLite
@testable import Catalogue

/// `kill -9` at moments picked from real `album run`s' own progress: the catalogue stays sound and the rerun
/// completes the job.
///
/// Every run redoes every step (`--force`) with the other look (sepia, noir, sepia, …), so every export replaces
/// the file of the one before. The test reads the run's `--log-format json` events and watches the export folder
/// (inotify), and kills at one of four moments, in turn, at a seeded position k over the whole run:
/// - right after the first committed step (the first `done` event);
/// - right after the k-th step event (a batch just committed, the next one open);
/// - when the k-th export's temporary file appears (the middle of a batch: that export's row is not written yet);
/// - when the k-th export is renamed over the previous export of its photo (during the replace: between the rename
///   and the new row, where the old row must already be forgotten).
/// Only runs that `waitpid` says ended by SIGKILL count as kills; each is printed. `make test` requires at least 10,
/// at least 2 at each moment; `ALBUM_SOAK=1` kills 300 runs. `ALBUM_CRASH_SEED` replays a sequence.
final class CrashSafetyTests: XCTestCase {
    let photoCount = 40

    /// Where in a run the kill lands.
    enum Moment: String, CaseIterable {
        case firstCommittedStep = "after the first committed step"
        case afterStepEvent = "after step event"
        case exportBeingWritten = "while writing export"
        case exportReplaced = "right after the rename of export"
    }

    /// Forty small photos, a quarter of them taken in April 2008, in two folders; every photo gets the run's look.
    func makePhotos(in folder: String) throws {
        for index in 0..<photoCount {
            let taken = index % 4 == 0 ? String(format: "2008:04:%02d 12:00:00", index / 4 + 1) : nil
            try Fixture.jpeg(at: "\(folder)/photos/\(index % 2 == 0 ? "even" : "odd")/p\(index).jpg",
                             width: 160 + 8 * index, height: 120 + 4 * (index % 7), taken: taken, quality: 80 + index % 15)
        }
        try TestSupport.write("""
            version: 1
            name: crash
            stages:
              - import: {from: photos}
              - filter: {preset: "${LOOK}"}
              - thumbnail: {size: 96x96}
              - export: {from: thumbnail, to: "out/{name}.jpg"}
            """, to: "job.yml", in: folder)
    }

    /// `album run job.yml --workers 2 --force --log-format json` with the look `look`.
    func arguments(look: String) -> [String] {
        ["run", "job.yml", "--workers", "2", "--force", "--set", "LOOK=\(look)", "--log-format", "json"]
    }

    /// Runs the job, and kills it with SIGKILL the instant `moment` is reached for the k-th time (never, when the run
    /// ends first). Returns how the process ended, what the kill followed (nil when no kill was sent), and how many
    /// step events and export renames the run made before it ended.
    func run(in folder: String, look: String, killAt moment: Moment?, k: Int) throws
        -> (ending: Spawn.Ending, reached: String?, steps: Int, renames: Int) {
        let watch = try FolderWatch(folder + "/out")
        defer { watch.close() }
        let pipe = try Spawn.pipe()
        let child = try Spawn(arguments(look: look), in: folder, stdout: .descriptor(pipe.write), stderr: .null)
        close(pipe.write)
        defer { close(pipe.read) }
        var pending: [UInt8] = [], steps = 0, temporaries = 0, renames = 0, reached: String?, open = true
        while reached == nil, open {
            var ready = [pollfd(fd: watch.descriptor, events: Int16(POLLIN), revents: 0),
                         pollfd(fd: pipe.read, events: Int16(POLLIN), revents: 0)]
            if poll(&ready, 2, -1) < 0 {
                guard errno == EINTR else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
                continue
            }
            if ready[0].revents != 0 {
                for name in watch.names() where reached == nil {
                    if name.event == .created, name.name.contains(".album-") {
                        temporaries += 1
                        if moment == .exportBeingWritten, temporaries == k { reached = "\(name.name) (#\(k))" }
                    } else if name.event == .movedTo, !name.name.hasPrefix(".") {
                        renames += 1
                        if moment == .exportReplaced, renames == k { reached = "\(name.name) (#\(k))" }
                    }
                }
            }
            if reached == nil, ready[1].revents != 0 {
                var chunk = [UInt8](repeating: 0, count: 65_536)
                let count = chunk.withUnsafeMutableBytes { read(pipe.read, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                if count <= 0 { open = false; continue }
                pending += chunk[..<count]
                while reached == nil, let newline = pending.firstIndex(of: 0x0A) {
                    let line = String(decoding: pending[..<newline], as: UTF8.self)
                    pending.removeSubrange(...newline)
                    guard line.contains(#""event":"step""#) else { continue }
                    steps += 1
                    if moment == .firstCommittedStep, line.contains(#""status":"done""#) { reached = "(#\(steps))" }
                    if moment == .afterStepEvent, steps == k { reached = "#\(k)" }
                }
            }
        }
        if reached != nil { kill(child.pid, SIGKILL) }
        // What album wrote before it ended, so that it is never blocked on a full pipe.
        var sink = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = sink.withUnsafeMutableBytes { read(pipe.read, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { break }
        }
        return (child.wait(), reached, steps, renames)
    }

    /// What must hold after any kill: SQLite's integrity, `album verify`, one row per photo, no temporary file
    /// recorded as a rendition.
    func assertSound(_ folder: String, _ context: String) throws {
        let catalogue = try Catalogue(folder: folder + "/album", create: false)
        defer { catalogue.close() }
        XCTAssertEqual(try catalogue.database.query("PRAGMA integrity_check") { $0.text(0) }, ["ok"], context)
        let photos = try catalogue.allPhotos()
        XCTAssertEqual(photos.count, photoCount, "the first run imported every photo; no kill adds one: \(context)")
        XCTAssertEqual(Set(photos.map(\.path)).count, photos.count, "one catalogue entry per photo: \(context)")
        let recorded = try catalogue.renditions(kind: nil)
        XCTAssertFalse(recorded.contains { $0.path.contains(".album-") }, "no temporary file is a rendition: \(context)")
        let verify = try TestSupport.album(["verify", "--catalogue", "album"], in: folder)
        XCTAssertEqual(verify.status, 0, "album verify after \(context):\n\(verify.stdout)\(verify.stderr)")
    }

    func testKillNineAtMomentsOfTheRunsOwnProgressLeavesASoundCatalogueAndTheRerunCompletesTheJob() throws {
        let environment = ProcessInfo.processInfo.environment
        let soak = environment["ALBUM_SOAK"] == "1"
        let seed = environment["ALBUM_CRASH_SEED"].flatMap { UInt64($0) } ?? 0xA1B0_2008
        var random = SplitMix64(state: seed)
        let folder = try TestSupport.temporaryFolder(self)
        try makePhotos(in: folder)

        // A whole run, not killed: it makes the exports every later run replaces, and says how many step events a
        // run writes, so that k can land anywhere in one.
        try FileManager.default.createDirectory(atPath: folder + "/out", withIntermediateDirectories: true)
        let whole = try run(in: folder, look: "sepia", killAt: nil, k: 0)
        XCTAssertEqual(whole.ending, .exited(0), "a run that is not killed succeeds")
        XCTAssertEqual(whole.steps, 4 * photoCount, "import, filter, thumbnail and export for every photo")
        XCTAssertEqual(whole.renames, photoCount, "one export per photo")
        try assertSound(folder, "the first run")

        let wanted = soak ? 300 : 12, perMoment = soak ? 50 : 2
        var kills: [Moment: Int] = [:], attempts = 0
        while attempts < wanted * 3,
              kills.values.reduce(0, +) < wanted || Moment.allCases.contains(where: { kills[$0, default: 0] < perMoment }) {
            let moment = Moment.allCases[attempts % Moment.allCases.count]
            attempts += 1
            let look = attempts % 2 == 1 ? "noir" : "sepia"
            // Positions over the whole run: step events, or exports (one temporary file and one rename each).
            let k = 1 + random.below(moment == .afterStepEvent ? whole.steps : photoCount)
            let result = try run(in: folder, look: look, killAt: moment, k: k)
            let killed = result.ending == .signalled(SIGKILL)
            let context = "attempt \(attempts) (seed \(seed), look \(look)): \(moment.rawValue) \(result.reached ?? "(not reached)"), \(result.ending)"
            if killed {
                kills[moment, default: 0] += 1
                print("CrashSafetyTests: kill \(kills.values.reduce(0, +)): \(context)")
            } else {
                XCTAssertEqual(result.ending, .exited(0), "a run that was not killed succeeds: \(context)")
            }
            try assertSound(folder, context)
            if testRun.map({ $0.failureCount > 0 }) ?? false { break }  // the first broken state is the one to read
        }
        let total = kills.values.reduce(0, +)
        print("CrashSafetyTests: \(attempts) runs, \(total) ended by SIGKILL "
              + Moment.allCases.map { "\(kills[$0, default: 0]) \($0.rawValue)" }.joined(separator: ", ") + "; seed \(seed)")
        guard testRun.map({ $0.failureCount == 0 }) ?? true else { return }  // stopped at the broken state above
        XCTAssertGreaterThanOrEqual(total, soak ? wanted : 10, "runs that really ended by SIGKILL")
        for moment in Moment.allCases {
            XCTAssertGreaterThanOrEqual(kills[moment, default: 0], perMoment, "kills \(moment.rawValue)")
        }

        let rerun = try TestSupport.album(["run", "job.yml", "--workers", "2", "--set", "LOOK=sepia"], in: folder)
        XCTAssertEqual(rerun.status, 0, rerun.stderr)
        try assertSound(folder, "the rerun")
        let catalogue = try Catalogue(folder: folder + "/album", create: false)
        defer { catalogue.close() }
        XCTAssertEqual(try catalogue.allPhotos().count, photoCount, "exactly one catalogue entry per photo")
        XCTAssertFalse(try catalogue.runs().contains { $0.status == "running" }, "killed runs are marked interrupted")
        let exported = try FileManager.default.contentsOfDirectory(atPath: folder + "/out").filter { !$0.hasPrefix(".") }
        XCTAssertEqual(exported.count, photoCount)

        // Leftovers of the kills are gc's; after it, nothing is redone: every file a step needs is still there.
        XCTAssertEqual(try TestSupport.album(["gc"], in: folder).status, 0)
        let again = try TestSupport.album(["run", "job.yml", "--set", "LOOK=sepia"], in: folder)
        XCTAssertEqual(again.status, 0, again.stderr)
        let last = try XCTUnwrap(catalogue.runs().first)
        XCTAssertEqual(try catalogue.stepCounts(run: last.id), [
            .import: [.skipped: photoCount], .filter: [.skipped: photoCount], .thumbnail: [.skipped: photoCount],
            .export: [.skipped: photoCount],
        ])
        try assertSound(folder, "gc and a last rerun")
    }
}

/// The names created in, or renamed into, one folder, as the kernel reports them (inotify), so a test can act the
/// moment a file appears: no polling, no sleeping.
final class FolderWatch {
    enum Event { case created, movedTo, modified }

    let descriptor: Int32

    /// `modifications`: also each write to a file in the folder (`IN_MODIFY`; inotify merges a write into the one
    /// before it while that is unread).
    init(_ folder: String, modifications: Bool = false) throws {
        descriptor = inotify_init1(Int32(IN_CLOEXEC))
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        let mask = UInt32(IN_CREATE) | UInt32(IN_MOVED_TO) | (modifications ? UInt32(IN_MODIFY) : 0)
        guard inotify_add_watch(descriptor, folder, mask) >= 0 else {
            let error = errno
            Glibc.close(descriptor)
            throw POSIXError(POSIXErrorCode(rawValue: error) ?? .EIO)
        }
    }

    /// The events waiting (blocks until there is one).
    func names() -> [(event: Event, name: String)] {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return [] }
        // struct inotify_event: int wd; uint32_t mask, cookie, len; char name[len] (NUL-padded).
        var events: [(Event, String)] = [], offset = 0
        while offset + 16 <= count {
            let mask = buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self) }
            let length = Int(buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self) })
            let raw = buffer[(offset + 16)..<(offset + 16 + length)]
            let name = String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            if mask & UInt32(IN_CREATE) != 0 { events.append((.created, name)) }
            if mask & UInt32(IN_MOVED_TO) != 0 { events.append((.movedTo, name)) }
            if mask & UInt32(IN_MODIFY) != 0 { events.append((.modified, name)) }
            offset += 16 + length
        }
        return events
    }

    func close() { Glibc.close(descriptor) }
}
