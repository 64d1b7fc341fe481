import XCTest
@testable import Core
@testable import Catalogue
@testable import JobFile
@testable import Stages

/// `StageName`: the four stages a job lists, and `album caption`'s step, which is recorded like them but listed by
/// no job.
final class StageNameTests: XCTestCase {
    func testACaptionStepReadsBackAsACaptionAndNoJobMayListIt() throws {
        XCTAssertEqual(StageRegistry.names, [.import, .filter, .thumbnail, .export])
        XCTAssertEqual(StageRegistry.stepNames, StageRegistry.names + [.caption])

        let folder = try TestSupport.temporaryFolder(self)
        let catalogue = try Catalogue(folder: folder, create: true, writing: true)
        defer { catalogue.close() }
        let photo = PhotoRecord(id: "aa", hash: "hash-aa", path: "/p/aa.jpg", bytes: 10, mtimeNanoseconds: 1, inode: 2,
                                width: 3, height: 4, format: "jpeg", taken: nil, added: Timestamp.now(), caption: nil,
                                filter: "none", filterRecipe: "[]", camera: nil, orientation: 1, hasGPS: false,
                                replaces: nil, storedPath: nil)
        try catalogue.insert(photo)
        let (run, changed) = try catalogue.setCaption("Dunes", of: photo, software: .current)
        XCTAssertTrue(changed)
        XCTAssertEqual(try catalogue.steps(run: run).map(\.stage), [.caption], "not read back as an import")
        XCTAssertEqual(try catalogue.stepCounts(run: run), [.caption: [.done: 1]])

        try TestSupport.write("version: 1\nstages:\n  - caption: {}\n", to: "job.yml", in: folder)
        XCTAssertThrowsError(try JobLoader.load(path: folder + "/job.yml")) { error in
            XCTAssert("\(error)".contains("unknown stage 'caption'"), "\(error)")
        }
    }
}
