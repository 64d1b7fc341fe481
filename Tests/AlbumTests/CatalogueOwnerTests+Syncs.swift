import Foundation
import Synchronization
import System
import XCTest
@testable import Run

/// Deferred durability, on `CatalogueOwnerTests`' catalogue file: the files written for a batch's rows are synced by
/// the catalogue's owner just before the commit that records them, and a file that cannot be synced keeps its batch
/// from committing.
extension CatalogueOwnerTests {
    func testTheOwnerSyncsTheBatchsFilesBeforeItCommitsThem() throws {
        let syncs = PendingSyncs()
        let owner = CatalogueOwner(catalogue, batchSize: 100, batchSeconds: 3600, syncs: syncs)
        try AtomicFile.write([1, 2, 3], to: folder + "/thumbnails/ab/one.jpg", syncs: syncs)
        try AtomicFile.write([4, 5], to: folder + "/thumbnails/cd/two.jpg", syncs: syncs)
        XCTAssertEqual(syncs.count, 2, "written, synced and renamed into place; their folders not yet synced")
        XCTAssertEqual(try Array(Data(contentsOf: URL(fileURLWithPath: folder + "/thumbnails/ab/one.jpg"))), [1, 2, 3])
        let seenAtCommit = Mutex<Int?>(nil)
        owner.async({ [step = step(1)] in try $0.record(step) }, afterCommit: { seenAtCommit.withLock { $0 = syncs.count } })
        XCTAssertNil(owner.finish())
        XCTAssertEqual(seenAtCommit.withLock { $0 }, 0, "every pending folder was synced before the commit")
        XCTAssertEqual(try committedPaths(), ["/p/1.jpg"])
    }

    func testAFileThatCannotBeSyncedKeepsItsBatchFromCommitting() throws {
        let syncs = PendingSyncs()
        let owner = CatalogueOwner(catalogue, batchSize: 100, batchSeconds: 3600, syncs: syncs)
        try AtomicFile.write([1], to: folder + "/exports/a/photo.jpg", syncs: syncs)
        // Its folder is moved away and a plain file takes its name: opening the folder to sync it fails (ENOTDIR).
        try FileManager.default.moveItem(atPath: folder + "/exports/a", toPath: folder + "/exports/b")
        try AtomicFile.write([2], to: folder + "/exports/a")
        let announced = Mutex(false)
        owner.async({ [step = step(1)] in try $0.record(step) }, afterCommit: { announced.withLock { $0 = true } })
        let error = owner.finish()
        XCTAssert("\(String(describing: error))".contains("exports/a"), "the folder that could not be synced is named: \(String(describing: error))")
        XCTAssertEqual(try committedPaths(), [], "its batch was rolled back, not committed")
        XCTAssertFalse(announced.withLock { $0 }, "nothing is announced that was not recorded")
    }

    func testAFileGoneBeforeTheFlushHasNothingLeftToSync() throws {
        let syncs = PendingSyncs()
        try AtomicFile.write([1], to: folder + "/gone.jpg", syncs: syncs)
        try FileManager.default.removeItem(atPath: folder + "/gone.jpg")
        XCTAssertNoThrow(try syncs.flush())
        XCTAssertEqual(syncs.count, 0)
    }
}
