import Synchronization
import XCTest
import SQLite
@testable import Core
@testable import Catalogue
@testable import Run

/// The catalogue's serial owner on a real catalogue file in a temporary folder, each rule alone: sync reads and
/// writes, batching by count and by time, `afterCommit` only after the commit and in order, `finish`,
/// `firstError`, and what damage does. What other connections see is read through a second, read-only connection.
final class CatalogueOwnerTests: XCTestCase {
    var folder = ""
    var catalogue: Catalogue!
    var reader: Database!
    var run: Int64 = 0

    override func setUpWithError() throws {
        folder = try TestSupport.temporaryFolder(self)
        catalogue = try Catalogue(folder: folder, create: true, writing: true)
        run = try catalogue.beginRun(job: "owner", jobPath: nil, jobHash: nil, started: Timestamp.now(),
                                     software: Software(album: "t", vips: "8", sqlite: "3", host: "h"))
        reader = try Database(path: folder + "/" + Catalogue.databaseName, mode: .readOnly)
    }

    override func tearDown() {
        reader?.close()
        catalogue?.close()
    }

    func step(_ n: Int, run: Int64? = nil) -> StepRecord {
        StepRecord(run: run ?? self.run, photo: nil, path: "/p/\(n).jpg", stage: .thumbnail, parameters: "{}",
                   inputHash: nil, outputHash: nil, milliseconds: 1, status: .done, error: nil)
    }

    /// The step rows another connection sees: only committed ones.
    func committedPaths() throws -> [String] {
        try reader.query("SELECT path FROM steps ORDER BY id") { try $0["path"] as String }
    }

    func testSyncReadsSeeTheBatchsRowsBeforeTheyCommitAndSyncCommittedCommitsAtOnce() throws {
        let owner = CatalogueOwner(catalogue, batchSize: 100, batchSeconds: 3600)
        try owner.sync { try $0.record(step(1)) }
        XCTAssertEqual(try owner.sync { try $0.steps(run: run).map(\.path) }, ["/p/1.jpg"], "the owner's own connection sees its batch")
        XCTAssertEqual(try committedPaths(), [], "the batch is not committed yet")
        let value = try owner.syncCommitted { catalogue in try catalogue.record(step(2)); return 42 }
        XCTAssertEqual(value, 42)
        XCTAssertEqual(try committedPaths(), ["/p/1.jpg", "/p/2.jpg"], "syncCommitted commits everything batched before it too")
        XCTAssertNil(owner.finish())
    }

    func testABatchCommitsAtItsSizeAndAnAfterCommitRunsOnlyOnceItsRowIsCommittedInOrder() throws {
        let owner = CatalogueOwner(catalogue, batchSize: 5, batchSeconds: 3600)
        let announced = Mutex<[(step: Int, committedThen: [String])]>([])
        let fourth = expectation(description: "the fourth write's afterCommit")
        // `Database` is not Sendable: this connection is used by the afterCommits on the owner's queue only while the
        // test waits (its own reads at n == 3 come before the fourth write is queued, so never at the same time).
        nonisolated(unsafe) let reader = try XCTUnwrap(self.reader)
        for n in 1...4 {
            let step = step(n)
            owner.async({ try $0.record(step) }, afterCommit: {
                let committed = (try? reader.query("SELECT path FROM steps ORDER BY id") { try $0["path"] as String }) ?? []
                announced.withLock { $0.append((n, committed)) }
                if n == 4 { fourth.fulfill() }
            })
            if n == 3 {
                XCTAssertEqual(try owner.sync { try $0.steps(run: run).count }, 3)
                XCTAssertEqual(announced.withLock { $0.count }, 0, "three writes and a read (reads count): the batch of 5 is still open")
                XCTAssertEqual(try committedPaths(), [])
            }
        }
        wait(for: [fourth], timeout: 60)
        let all = ["/p/1.jpg", "/p/2.jpg", "/p/3.jpg", "/p/4.jpg"]
        XCTAssertEqual(announced.withLock { $0.map(\.step) }, [1, 2, 3, 4], "in the order the writes were queued")
        for entry in announced.withLock({ $0 }) {
            XCTAssertEqual(entry.committedThen, all, "step \(entry.step) was announced after the commit that holds it")
        }
        XCTAssertNil(owner.finish())
    }

    func testAnOpenBatchCommitsWhenItsTimeIsUp() throws {
        let owner = CatalogueOwner(catalogue, batchSize: 1_000_000, batchSeconds: 0.05)
        let committed = expectation(description: "the timer's commit")
        owner.async({ [step = step(1)] in try $0.record(step) }, afterCommit: { committed.fulfill() })
        wait(for: [committed], timeout: 60)
        XCTAssertEqual(try committedPaths(), ["/p/1.jpg"], "no size reached, the timer committed it")
        XCTAssertNil(owner.finish())
    }

    func testAFailedWriteIsTheFirstErrorHasNoAfterCommitAndLeavesTheOthersToCommit() throws {
        let owner = CatalogueOwner(catalogue, batchSize: 100, batchSeconds: 3600)
        let ran = Mutex<[Int]>([])
        owner.async({ [step = step(1)] in try $0.record(step) }, afterCommit: { ran.withLock { $0.append(1) } })
        owner.async({ [step = step(2, run: 999)] in try $0.record(step) }, afterCommit: { ran.withLock { $0.append(2) } })  // no run 999
        owner.async({ _ in throw CatalogueError("a later failure") }, afterCommit: { ran.withLock { $0.append(3) } })
        owner.async({ [step = step(4)] in try $0.record(step) }, afterCommit: { ran.withLock { $0.append(4) } })
        let error = owner.finish()
        XCTAssertEqual((error as? SQLiteError)?.primaryCode, 19, "the first failure, a FOREIGN KEY constraint: \(String(describing: error))")
        XCTAssertEqual((owner.firstError as? SQLiteError)?.primaryCode, 19)
        XCTAssertEqual(ran.withLock { $0 }, [1, 4], "only the writes that were recorded are announced")
        XCTAssertEqual(try committedPaths(), ["/p/1.jpg", "/p/4.jpg"])
    }

    func testFinishCommitsWhatIsPendingAndTheOwnerTakesNothingAfterIt() throws {
        let owner = CatalogueOwner(catalogue, batchSize: 100, batchSeconds: 3600)
        let ran = Mutex(0)
        owner.async({ [step = step(1)] in try $0.record(step) }, afterCommit: { ran.withLock { $0 += 1 } })
        XCTAssertNil(owner.finish())
        XCTAssertEqual(ran.withLock { $0 }, 1, "finish's commit runs the pending afterCommit")
        XCTAssertEqual(try committedPaths(), ["/p/1.jpg"])
        XCTAssertThrowsError(try owner.sync { try $0.record(step(2)) }) { error in
            XCTAssert("\(error)".contains("the run has ended"), "\(error)")
        }
        owner.async({ [step = step(3)] in try $0.record(step) }, afterCommit: { ran.withLock { $0 += 1 } })
        XCTAssertNil(owner.finish(), "a write queued after finish is dropped, not an error")
        XCTAssertEqual(ran.withLock { $0 }, 1)
        XCTAssertEqual(try committedPaths(), ["/p/1.jpg"])
    }

    /// Damage is SQLite's SQLITE_CORRUPT as the owner receives it from a stage's read: thrown by the body here,
    /// since a file damaged at one exact statement cannot be made on demand (CatalogueIntegrityTests damages real
    /// files end to end).
    func testDamageRollsTheBatchBackDropsItsAnnouncementsAndRefusesEveryLaterWrite() throws {
        let owner = CatalogueOwner(catalogue, batchSize: 100, batchSeconds: 3600)
        let ran = Mutex<[Int]>([])
        try owner.syncCommitted { try $0.record(step(1)) }
        owner.async({ [step = step(2)] in try $0.record(step) }, afterCommit: { ran.withLock { $0.append(2) } })
        let damage = SQLiteError(code: 11, message: "database disk image is malformed", sql: "SELECT * FROM photos")
        XCTAssertThrowsError(try owner.sync { _ in throw damage }) { error in
            XCTAssertEqual((error as? SQLiteError)?.code, 11)
        }
        XCTAssertThrowsError(try owner.sync { try $0.record(step(3)) }, "nothing is written after damage") { error in
            XCTAssertEqual((error as? SQLiteError)?.code, 11, "the damage is the reason given")
        }
        owner.async({ [step = step(4)] in try $0.record(step) }, afterCommit: { ran.withLock { $0.append(4) } })
        XCTAssertEqual((owner.finish() as? SQLiteError)?.code, 11)
        XCTAssertEqual(ran.withLock { $0 }, [], "the rolled-back batch's event never goes out")
        XCTAssertEqual(try committedPaths(), ["/p/1.jpg"], "only what was committed before the damage")
        XCTAssertEqual(try catalogue.steps(run: run).map(\.path), ["/p/1.jpg"], "the batch was rolled back, not left open")
    }
}
