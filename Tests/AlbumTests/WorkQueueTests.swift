import Dispatch
import Foundation
import Synchronization
import System
import Vips
import XCTest
@testable import Catalogue
@testable import Media
@testable import JobFile
@testable import Run
@testable import Service
@testable import Commands

/// `WorkQueue`: the run's items in order, except that one whose decode does not fit the memory budget beside the
/// items in their chains is put aside, and taken first once it fits (docs/scheduler.md, "Memory budget").
final class WorkQueueTests: XCTestCase {
    /// Items named by their need ("A30": 30 pixels).
    let need: @Sendable (String) -> Int = { Int($0.dropFirst()) ?? 0 }

    func testAnItemThatDoesNotFitIsPutAsideAndTheNextOneTaken() throws {
        let queue = WorkQueue(["A30", "B30", "C0", "D10", "E0"], capacity: 40)
        let never = { false }
        let a = try XCTUnwrap(queue.take(need: need, stopped: never))
        XCTAssertEqual(a.item, "A30")
        // B's 30 do not fit beside A's 30 in 40: put aside. C needs nothing; D's 10 fit beside A.
        XCTAssertEqual(queue.take(need: need, stopped: never)?.item, "C0")
        let d = try XCTUnwrap(queue.take(need: need, stopped: never))
        XCTAssertEqual(d.item, "D10")
        queue.finished(a)
        // A's chain is over: B fits beside D (10 + 30) and is taken before E, the next in order.
        let b = try XCTUnwrap(queue.take(need: need, stopped: never))
        XCTAssertEqual(b.item, "B30")
        XCTAssertEqual(queue.take(need: need, stopped: never)?.item, "E0")
        queue.finished(b)
        queue.finished(d)
        XCTAssertNil(queue.take(need: need, stopped: never), "every item was taken once")
    }

    func testAnItemLargerThanTheBudgetStillRunsAloneAndAStopEndsTheWait() throws {
        let queue = WorkQueue(["A5", "B50", "C5"], capacity: 40)
        let never = { false }
        let a = try XCTUnwrap(queue.take(need: need, stopped: never))
        // B's 50 are over the whole budget: it waits for A; C fits beside A.
        XCTAssertEqual(queue.take(need: need, stopped: never)?.item, "C5")
        // Only B is left, and it does not fit yet: a stop ends the wait with nothing.
        XCTAssertNil(queue.take(need: need, stopped: { true }))
        queue.finished(a)
    }

    /// Two threads: the worker that finds only an item put aside waits until the other ends its chain.
    func testAWorkerWaitsForTheChainThatKeepsAnItemAside() throws {
        let queue = WorkQueue(["A30", "B30"], capacity: 40)
        let a = try XCTUnwrap(queue.take(need: need, stopped: { false }))
        let need = self.need
        let took = DispatchSemaphore(value: 0)
        let taken = Mutex<String?>(nil)
        Thread {
            let b = queue.take(need: need, stopped: { false })
            taken.withLock { $0 = b?.item }
            took.signal()
        }.start()
        XCTAssertEqual(took.wait(timeout: .now() + .milliseconds(300)), .timedOut, "B was taken beside A")
        queue.finished(a)
        XCTAssertEqual(took.wait(timeout: .now() + .seconds(60)), .success, "A's end lets B in")
        XCTAssertEqual(taken.withLock { $0 }, "B30")
    }

    /// The scheduler asks a new file's frame header for its need: a progressive JPEG's coefficient buffer in the
    /// budget's unit, as its stage will reserve it; a baseline JPEG, a PNG and a file the catalogue knows need 0.
    func testANewProgressiveJPEGNeedsItsCoefficientBufferAndOthersNothing() throws {
        try Vips.start()
        let folder = try TestSupport.temporaryFolder(self)
        let image = try Image.fromPixels(Fixture.quadrantPixels(width: 640, height: 480), width: 640, height: 480, bands: 3)
        try FileManager.default.createDirectory(atPath: folder + "/photos", withIntermediateDirectories: true)
        var paths: [String: String] = [:]
        for (name, suffix) in ["progressive.jpg": ".jpg[Q=95,interlace,strip]", "baseline.jpg": ".jpg[Q=95,strip]",
                               "plain.png": ".png"] {
            paths[name] = folder + "/photos/" + name
            try Data(try image.encoded(suffix: suffix)).write(to: URL(fileURLWithPath: paths[name]!))
        }
        try TestSupport.write("version: 1\nstages:\n  - import: {from: photos}\n  - thumbnail: {}\n", to: "job.yml", in: folder)
        let job = try JobLoader.load(path: folder + "/job.yml")
        func scheduler() throws -> Scheduler {
            let catalogue = try Catalogue(folder: job.catalogue, create: true, writing: true)
            let scheduler = Scheduler(job: job, options: RunOptions(), catalogue: catalogue, run: 0, software: .current,
                                      observer: Reporters(all: []))
            let snapshot = try CatalogueSnapshot(reading: catalogue)
            scheduler.snapshot.withLock { $0 = snapshot }
            catalogue.close()
            return scheduler
        }
        let fresh = try scheduler()
        let header = try Image.open(FileBytes(path: paths["progressive.jpg"]!), sequential: true, failOn: .warning)
        XCTAssertEqual(fresh.decodeNeed(.file(paths["progressive.jpg"]!)), LookRenderer.reservation(for: header, wholeImage: false))
        XCTAssertEqual(fresh.decodeNeed(.file(paths["progressive.jpg"]!)), 2 * 640 * 480, "4:4:4: 6 bytes a pixel, 3 a unit")
        XCTAssertEqual(fresh.decodeNeed(.file(paths["baseline.jpg"]!)), 0)
        XCTAssertEqual(fresh.decodeNeed(.file(paths["plain.png"]!)), 0)
        XCTAssertEqual(fresh.decodeNeed(.file(folder + "/photos/missing.jpg")), 0)
        // Once imported, a file is not read before its chain: its stages reserve what they need.
        var options = RunOptions()
        options.workers = 1
        XCTAssertEqual(try JobRun(job: job, options: options, observer: Reporters(all: []), mainStreams: []).run(), .ok)
        XCTAssertEqual(try scheduler().decodeNeed(.file(paths["progressive.jpg"]!)), 0)
    }
}
