import Foundation
import XCTest
import SQLite
import System
import Synchronization
@testable import Catalogue
@testable import Service

/// `album watch`, end to end through the built binary: photos dropped into a watched folder while it runs (renamed
/// into place, copied slowly, written into folders made meanwhile) are each imported and thumbnailed once; a file
/// still being written is never imported as it is then; SIGINT ends the watch with 130 and a sound catalogue.
///
/// Nothing here decides by a sleep: the tests wait, with a generous deadline for a loaded machine, for what album
/// records in its catalogue and says on stderr. The pauses in the writers only make partial files exist for a while.
final class WatchTests: XCTestCase {
    /// How long a test waits for album to do something before it gives up (a bound for a broken build).
    static let deadline: TimeInterval = 150

    static let job = """
        version: 1
        stages:
          - import: {from: photos}
          - thumbnail: {size: 32x32}
        """

    /// A running `album watch job.yml`, its stdout (JSON events) and stderr in files, so it never waits on a reader.
    final class Watch {
        let child: Spawn
        let folder: String

        init(in folder: String, _ extra: [String] = []) throws {
            self.folder = folder
            child = try Spawn(["watch", "job.yml", "--settle", "0.5", "--log-format", "json"] + extra, in: folder,
                              stdout: .log(folder + "/events.log"), stderr: .log(folder + "/stderr.log"))
        }

        var stderr: String { (try? String(contentsOfFile: folder + "/stderr.log", encoding: .utf8)) ?? "" }
        var events: [String] { ((try? String(contentsOfFile: folder + "/events.log", encoding: .utf8)) ?? "").split(separator: "\n").map(String.init) }

        /// Sends SIGINT and waits for album to end.
        func interrupt() -> Spawn.Ending {
            kill(child.pid, SIGINT)
            return child.wait()
        }
    }

    /// Waits until `condition` holds, checking every 200 ms; fails the test when the deadline passes first.
    func waitUntil(_ what: String, _ condition: () throws -> Bool, file: StaticString = #filePath, line: UInt = #line) rethrows {
        let end = Date().addingTimeInterval(WatchTests.deadline)
        while Date() < end {
            if try condition() { return }
            Thread.sleep(forTimeInterval: 0.2)
        }
        XCTFail("gave up waiting for \(what)", file: file, line: line)
    }

    /// One value from the catalogue, read through its own read-only connection (album writes meanwhile).
    func count(_ sql: String, in folder: String) -> Int {
        let path = folder + "/album/" + Catalogue.databaseName
        guard FileManager.default.fileExists(atPath: path), let database = try? Database(path: path, mode: .readOnly) else { return 0 }
        defer { database.close() }
        database.setBusyTimeout(milliseconds: 2000)
        return (try? database.query(sql) { $0.int(0) }.first ?? 0) ?? 0
    }

    /// How many times each photo has a done step of `stage`, by photo id.
    func doneSteps(_ stage: String, in folder: String) throws -> [String: Int] {
        let database = try Database(path: folder + "/album/" + Catalogue.databaseName, mode: .readOnly)
        defer { database.close() }
        let rows = try database.query("SELECT photo, count(*) FROM steps WHERE stage = ? AND status = 'done' GROUP BY photo",
                                      [.text(stage)]) { ($0.text(0) ?? "", $0.int(1) ?? 0) }
        return Dictionary(rows, uniquingKeysWith: +)
    }

    /// `album ls --json`'s photos: path → hash.
    func listed(in folder: String) throws -> [String: String] {
        let result = try TestSupport.album(["ls", "--json"], in: folder)
        XCTAssertEqual(result.status, 0, result.stderr)
        let photos = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        return Dictionary(photos.map { ($0["path"] as? String ?? "", $0["hash"] as? String ?? "") }, uniquingKeysWith: { a, _ in a })
    }

    /// A small JPEG's bytes, each `i` its own width, so no two are one photo.
    func photoBytes(_ i: Int, staging: String) throws -> Data {
        let path = try Fixture.jpeg(at: "\(staging)/made-\(i).jpg", width: 64 + i, height: 48, variant: i)
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    /// Writes `bytes` to `path` in `chunks` writes through one open file, pausing between them: a partial file
    /// exists meanwhile, and the writer closes it only at the end.
    static func writeSlowly(_ bytes: Data, to path: String, chunks: Int, pause: TimeInterval) throws {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        let size = (bytes.count + chunks - 1) / chunks
        for start in stride(from: 0, to: bytes.count, by: size) {
            try handle.write(contentsOf: bytes[start..<min(start + size, bytes.count)])
            Thread.sleep(forTimeInterval: pause)
        }
        try handle.close()
    }

    /// A writer thread's error, for the test to check.
    final class Failure: Sendable {
        let text = Mutex<String?>(nil)
    }

    func testTwoHundredPhotosDroppedWhileWatchingAreEachImportedOnceAndSIGINTExits130() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let staging = folder + "/staging", photos = folder + "/photos"
        try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: true)
        try TestSupport.write(WatchTests.job, to: "job.yml", in: folder)
        // Photos there before the watch starts: its first batch takes them.
        for i in 0..<5 { try Fixture.jpeg(at: "\(photos)/before-\(i).jpg", width: 300 + i, height: 48, variant: i) }
        let bytes = try (0..<200).map { try photoBytes($0, staging: staging) }

        let watch = try Watch(in: folder, ["--workers", "2"])
        waitUntil("the watching line") { watch.stderr.contains("watching") }
        XCTAssert(watch.stderr.contains("album: watching 1 folder; Ctrl-C to stop"), watch.stderr)

        var expected: [String: Data] = [:]
        // A quarter copied slowly, beside the rest: each is a partial file for a while.
        let slow = (0..<200).filter { $0 % 4 == 1 }
        let slowDone = DispatchSemaphore(value: 0)
        let slowError = Failure()
        for i in slow { expected["\(photos)/slow-\(i).jpg"] = bytes[i] }
        let slowBytes = bytes
        Thread.detachNewThread {
            do {
                for i in slow { try WatchTests.writeSlowly(slowBytes[i], to: "\(photos)/slow-\(i).jpg", chunks: 4, pause: 0.03) }
            } catch { slowError.text.withLock { $0 = "\(error)" } }
            slowDone.signal()
        }
        for i in 0..<200 where i % 4 != 1 {
            switch i % 4 {
            case 0:  // written elsewhere, then renamed into place
                let temporary = "\(staging)/\(i).part"
                try bytes[i].write(to: URL(fileURLWithPath: temporary))
                let path = "\(photos)/moved-\(i).jpg"
                XCTAssertEqual(rename(temporary, path), 0)
                expected[path] = bytes[i]
            case 2:  // into folders made meanwhile, two deep, written at once after the mkdir
                let path = "\(photos)/new-\(i / 40)/deeper/n-\(i).jpg"
                try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try bytes[i].write(to: URL(fileURLWithPath: path))
                expected[path] = bytes[i]
            default:  // written in place in one go
                let path = "\(photos)/plain-\(i).jpg"
                try bytes[i].write(to: URL(fileURLWithPath: path))
                expected[path] = bytes[i]
            }
        }
        slowDone.wait()
        XCTAssertNil(slowError.text.withLock { $0 })
        for i in 0..<5 { expected["\(photos)/before-\(i).jpg"] = try Data(contentsOf: URL(fileURLWithPath: "\(photos)/before-\(i).jpg")) }
        XCTAssertEqual(expected.count, 205)

        waitUntil("205 photos thumbnailed") {
            count("SELECT count(*) FROM steps WHERE stage = 'thumbnail' AND status = 'done'", in: folder) >= 205
        }
        let ending = watch.interrupt()
        XCTAssertEqual(ending, .exited(130), watch.stderr)
        XCTAssert(watch.stderr.contains("stopped watching (SIGINT)") || watch.stderr.contains("stopping"), watch.stderr)

        // Each file is one photo, with the whole file's bytes; each was imported once and thumbnailed once.
        let photosListed = try listed(in: folder)
        XCTAssertEqual(Set(photosListed.keys), Set(expected.keys))
        for (path, data) in expected {
            XCTAssertEqual(photosListed[path], try TestSupport.hash(path), "\(path): the whole file was imported")
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), data, path)
        }
        let imports = try doneSteps("import", in: folder), thumbnails = try doneSteps("thumbnail", in: folder)
        XCTAssertEqual(imports.count, 205)
        XCTAssertEqual(thumbnails.count, 205)
        XCTAssertEqual(imports.values.filter { $0 != 1 }, [], "one import step per photo")
        XCTAssertEqual(thumbnails.values.filter { $0 != 1 }, [], "one thumbnail per photo")
        XCTAssertEqual(count("SELECT count(*) FROM steps WHERE status = 'failed'", in: folder), 0)

        // The events went out as in `album run`: every batch a run, started and finished.
        let events = watch.events
        XCTAssertGreaterThan(events.filter { $0.contains("\"run-finished\"") }.count, 0, events.joined(separator: "\n"))
        XCTAssertEqual(events.filter { $0.contains("\"run-started\"") }.count, events.filter { $0.contains("\"run-finished\"") }.count)

        let verify = try TestSupport.album(["verify"], in: folder)
        XCTAssertEqual(verify.status, 0, verify.stdout + verify.stderr)
    }

    func testAFileStillBeingWrittenIsNotImportedUntilItsWriterClosesIt() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let staging = folder + "/staging", photos = folder + "/photos"
        try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: true)
        try TestSupport.write(WatchTests.job, to: "job.yml", in: folder)
        let partial = try photoBytes(1, staging: staging), other = try photoBytes(2, staging: staging)

        let watch = try Watch(in: folder)
        waitUntil("the watching line") { watch.stderr.contains("watching") }
        // Half the file, its writer holding it open.
        let path = photos + "/slow.jpg"
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.write(contentsOf: partial.prefix(partial.count / 2))
        // Another photo arrives whole: its batch runs while the first is partial, and leaves the first alone.
        try other.write(to: URL(fileURLWithPath: photos + "/other.jpg"))
        waitUntil("other.jpg imported") { count("SELECT count(*) FROM photos", in: folder) >= 1 }
        XCTAssertEqual(Set(try listed(in: folder).keys), [photos + "/other.jpg"], "the partial file was not imported")
        XCTAssertEqual(count("SELECT count(*) FROM steps WHERE path LIKE '%slow.jpg'", in: folder), 0, "nor even tried")

        try handle.write(contentsOf: partial.dropFirst(partial.count / 2))
        try handle.close()
        waitUntil("slow.jpg imported") { count("SELECT count(*) FROM photos", in: folder) >= 2 }
        XCTAssertEqual(watch.interrupt(), .exited(130), watch.stderr)
        let photosListed = try listed(in: folder)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), partial)
        XCTAssertEqual(photosListed[path], try TestSupport.hash(path), "the photo is the whole file, imported once it was closed")
        XCTAssertEqual(count("SELECT count(*) FROM photos", in: folder), 2, "no truncated version recorded")
        XCTAssertEqual(try doneSteps("import", in: folder).values.sorted(), [1, 1])
        XCTAssertEqual(count("SELECT count(*) FROM steps WHERE path LIKE '%slow.jpg' AND stage = 'import'", in: folder), 1,
                       "slow.jpg was read once, whole")
        XCTAssertEqual(try TestSupport.album(["verify"], in: folder).status, 0)
    }

    /// Issue 32: a sidecar written or edited beside a watched photo updates its facts in the next batch, and no
    /// thumbnail is made again.
    func testASidecarEditedWhileWatchingUpdatesItsPhotosFacts() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try TestSupport.write(WatchTests.job, to: "job.yml", in: folder)
        try Fixture.jpeg(at: "\(folder)/photos/p.jpg", width: 64, height: 48, variant: 1)
        let watch = try Watch(in: folder)
        waitUntil("the photo's thumbnail") { count("SELECT count(*) FROM renditions", in: folder) == 1 }
        try TestSupport.write(XMPSidecarTests.elementSidecar(rating: 5, keywords: ["watched"]), to: "photos/p.xmp", in: folder)
        waitUntil("the sidecar's rating") { count("SELECT count(*) FROM photos WHERE rating = 5", in: folder) == 1 }
        XCTAssertEqual(watch.interrupt(), .exited(130), watch.stderr)
        XCTAssertEqual(count("SELECT count(*) FROM renditions", in: folder), 1)
        XCTAssertEqual(count("SELECT count(*) FROM steps WHERE stage = 'thumbnail' AND status = 'done'", in: folder), 1,
                       "no thumbnail made again")
        XCTAssertEqual(count("SELECT count(*) FROM photos", in: folder), 1, "the sidecar is no photo")
    }

    func testSIGTERMBetweenBatchesExits143AndOnceRunsOneBatch() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try TestSupport.write(WatchTests.job, to: "job.yml", in: folder)
        for i in 0..<3 { try Fixture.jpeg(at: "\(folder)/photos/p\(i).jpg", width: 64 + i, height: 48, variant: i) }
        let once = try TestSupport.album(["watch", "job.yml", "--once", "--settle", "0.2"], in: folder)
        XCTAssertEqual(once.status, 0, once.stderr)
        XCTAssertEqual(count("SELECT count(*) FROM photos", in: folder), 3)

        let watch = try Watch(in: folder)
        waitUntil("the watching line") { watch.stderr.contains("watching") }
        kill(watch.child.pid, SIGTERM)
        XCTAssertEqual(watch.child.wait(), .exited(143), watch.stderr)
        XCTAssertEqual(try TestSupport.album(["verify"], in: folder).status, 0)
    }

    /// Another holder of the catalogue's writer lock, holding it once this returns: util-linux's flock takes the same
    /// flock(2) album takes; with --no-fork, the process the test ends is the one that holds it.
    func holdLock(of folder: String) throws -> Process {
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        holder.arguments = ["--no-fork", "-x", folder + "/album/" + CatalogueLock.fileName, "/bin/sh", "-c", "echo held; exec sleep 600"]
        let said = Pipe()
        holder.standardOutput = said
        try holder.run()
        XCTAssertEqual(String(decoding: said.fileHandleForReading.readData(ofLength: 5), as: UTF8.self), "held\n")
        return holder
    }

    func testABatchWaitsForAnotherAlbumsLockAndASignalStillStopsTheWatchMeanwhile() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let staging = folder + "/staging", photos = folder + "/photos"
        try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: true)
        try TestSupport.write(WatchTests.job, to: "job.yml", in: folder)
        try Fixture.jpeg(at: "\(photos)/first.jpg", width: 70, height: 48, variant: 1)
        let watch = try Watch(in: folder)
        waitUntil("the first batch") { count("SELECT count(*) FROM photos", in: folder) == 1 }
        let holder = try holdLock(of: folder)
        defer { if holder.isRunning { holder.terminate() } }
        let second = try photoBytes(2, staging: staging)
        try second.write(to: URL(fileURLWithPath: staging + "/second.jpg"))
        try FileManager.default.moveItem(atPath: staging + "/second.jpg", toPath: photos + "/second.jpg")
        waitUntil("the batch says it waits") { watch.stderr.contains("is in use by") && watch.stderr.contains("the next batch waits for it") }
        XCTAssertEqual(count("SELECT count(*) FROM photos", in: folder), 1, "nothing imported while the lock is held")
        // The lock freed, the batch runs.
        holder.terminate()
        holder.waitUntilExit()
        waitUntil("second.jpg imported") { count("SELECT count(*) FROM photos", in: folder) == 2 }
        // That batch took its own file through the stages, and no other photo of the catalogue (no phase 2).
        waitUntil("the second batch's end") { watch.events.filter { $0.contains("\"run-finished\"") }.count == 2 }
        let finished = try XCTUnwrap(watch.events.last { $0.contains("\"run-finished\"") })
        let stages = try XCTUnwrap((JSONSerialization.jsonObject(with: Data(finished.utf8)) as? [String: Any])?["stages"] as? [String: [String: Int]])
        XCTAssertEqual(stages["import"], ["done": 1, "skipped": 0, "failed": 0], finished)
        XCTAssertEqual(stages["thumbnail"], ["done": 1, "skipped": 0, "failed": 0], "first.jpg is not this batch's: \(finished)")

        // Held again while a batch is due: SIGINT stops the watch at once, no flock to wait out.
        let again = try holdLock(of: folder)
        defer { if again.isRunning { again.terminate() } }
        let third = try photoBytes(3, staging: staging)
        try third.write(to: URL(fileURLWithPath: staging + "/third.jpg"))
        try FileManager.default.moveItem(atPath: staging + "/third.jpg", toPath: photos + "/third.jpg")
        waitUntil("the batch waits again") { watch.stderr.components(separatedBy: "the next batch waits for it").count == 3 }
        XCTAssertEqual(watch.interrupt(), .exited(130), watch.stderr)
        again.terminate()
        again.waitUntilExit()
        XCTAssertEqual(count("SELECT count(*) FROM photos", in: folder), 2)
        XCTAssertEqual(try TestSupport.album(["verify"], in: folder).status, 0)
    }

    // MARK: The pieces, in-process

    func testDirectoryWatchReadsCloseWriteMovesAndNewFoldersAndAddsTheirTrees() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try FileManager.default.createDirectory(atPath: folder + "/root/old", withIntermediateDirectories: true)
        try Data("x".utf8).write(to: URL(fileURLWithPath: folder + "/root/old/a.jpg"))
        let watch = try DirectoryWatch()
        defer { watch.close() }
        let tree = watch.addTree(folder + "/root") { _ in true }
        XCTAssertEqual(Set(tree.folders), [folder + "/root", folder + "/root/old"])
        XCTAssertEqual(tree.files, [folder + "/root/old/a.jpg"])
        XCTAssertEqual(watch.folderCount, 2)

        try Data("y".utf8).write(to: URL(fileURLWithPath: folder + "/b.part"))
        XCTAssertEqual(rename(folder + "/b.part", folder + "/root/b.jpg"), 0)
        try Data("z".utf8).write(to: URL(fileURLWithPath: folder + "/root/old/c.jpg"))
        try FileManager.default.createDirectory(atPath: folder + "/root/new", withIntermediateDirectories: true)
        var events: [DirectoryWatch.Event] = []
        let end = Date().addingTimeInterval(WatchTests.deadline)
        while !events.contains(where: { $0.isFolder }) && Date() < end { events += try watch.events(waitingMilliseconds: 200) }
        XCTAssert(events.contains(.init(kind: .movedIn, path: folder + "/root/b.jpg", isFolder: false)), "\(events)")
        XCTAssert(events.contains(.init(kind: .created, path: folder + "/root/old/c.jpg", isFolder: false)), "\(events)")
        XCTAssert(events.contains(.init(kind: .closedAfterWrite, path: folder + "/root/old/c.jpg", isFolder: false)), "\(events)")
        XCTAssert(events.contains(.init(kind: .created, path: folder + "/root/new", isFolder: true)), "\(events)")
        XCTAssertEqual(try watch.events(waitingMilliseconds: 0).filter { $0.path.hasSuffix(".part") }, [], "nothing from outside")
    }

    func testPendingFilesTakeWholeFilesAtOnceFoundOnesOnceStillAndOpenOnesOnlyAtTheirClose() throws {
        let folder = try TestSupport.temporaryFolder(self)
        for (name, size) in [("whole", 10), ("found", 10), ("open", 5), ("empty", 0)] {
            try Data(repeating: 1, count: size).write(to: URL(fileURLWithPath: "\(folder)/\(name).jpg"))
        }
        var pending = PendingFiles(settle: 1)
        let status = { (path: String) in FileStatus.of(folder + path.dropFirst(2)) }
        pending.saw("/p/whole.jpg", .complete, at: 0)
        pending.saw("/p/found.jpg", .found, at: 0)
        pending.saw("/p/open.jpg", .written, at: 0)
        pending.saw("/p/empty.jpg", .found, at: 0)
        pending.saw("/p/whole.jpg", .found, at: 0)  // a scan does not make a file less complete
        pending.check(at: 0, status: status)
        XCTAssertFalse(pending.isDue(at: 0.5), "not quiet yet")
        XCTAssertEqual(pending.ready(at: 0.5), ["/p/whole.jpg"])
        try Data(repeating: 2, count: 20).write(to: URL(fileURLWithPath: folder + "/found.jpg"))  // still growing
        pending.check(at: 0.8, status: status)
        XCTAssertEqual(pending.ready(at: 1.5), ["/p/whole.jpg"])
        XCTAssertTrue(pending.isDue(at: 1.5))
        XCTAssertEqual(pending.ready(at: 1.8), ["/p/whole.jpg", "/p/found.jpg"])
        pending.take(["/p/whole.jpg", "/p/found.jpg"], at: 2)
        pending.check(at: 3, status: status)
        XCTAssertEqual(pending.ready(at: 3_600), [], "an open file waits for its writer however long, and an empty one")
        pending.saw("/p/open.jpg", .complete, at: 3_601)  // its writer closed it
        pending.saw("/p/empty.jpg", .complete, at: 3_601)  // closed with nothing in it: it will be written next
        pending.check(at: 3_601, status: status)
        XCTAssertEqual(pending.ready(at: 3_601), ["/p/open.jpg"], "a closed file is whole, unless it is empty")
        XCTAssertTrue(pending.allReady(at: 3_601), "--once does not wait for an empty file")
        pending.saw("/p/open.jpg", .written, at: 3_602)   // written again
        pending.lostEvents(at: 3_603)                     // and its close may be among the events the kernel dropped
        pending.check(at: 3_603, status: status)
        XCTAssertEqual(pending.ready(at: 3_603.5), [], "after lost events, an open file is taken once it stays still")
        XCTAssertEqual(pending.ready(at: 3_604), ["/p/open.jpg"])
        try FileManager.default.removeItem(atPath: folder + "/empty.jpg")
        pending.check(at: 3_605, status: status)
        pending.removed("/p/open.jpg")
        XCTAssertTrue(pending.isEmpty, "a file gone is forgotten")
    }
}
