import XCTest
@testable import Core
@testable import Catalogue
@testable import JobFile

/// `missing` and `failed`: selection keys that the catalogue resolves before matching.
final class SelectionTests: XCTestCase {
    let software = Software(album: "t", vips: "8", sqlite: "3", host: "h")

    func photo(_ id: String) -> PhotoRecord {
        PhotoRecord(id: id, hash: "hash-" + id, path: "/p/\(id).jpg", bytes: 10, mtimeNanoseconds: 1, inode: 2, width: 3,
                    height: 4, format: "jpeg", taken: nil, added: Timestamp.now(), caption: nil, filter: "none",
                    filterRecipe: "[]", camera: nil, orientation: 1, hasGPS: false, replaces: nil, storedPath: nil)
    }

    func step(_ run: Int64, _ photo: String, _ status: StepRecord.Status) -> StepRecord {
        StepRecord(run: run, photo: photo, path: "/p/\(photo).jpg", stage: .thumbnail, parameters: "{}", inputHash: nil,
                   outputHash: nil, milliseconds: 1, status: status, error: status == .failed ? "broken" : nil)
    }

    func testMissingAndFailedAreResolvedFromRenditionsAndTheLastJobRun() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let catalogue = try Catalogue(folder: folder, create: true)
        defer { catalogue.close() }
        for id in ["aa", "bb", "cc", "dd"] { try catalogue.insert(photo(id)) }
        let older = try catalogue.beginRun(job: "j", jobPath: "/j.yml", jobHash: nil, started: Timestamp.now(), software: software)
        try catalogue.record(step(older, "aa", .failed))
        let newest = try catalogue.beginRun(job: "j", jobPath: "/j.yml", jobHash: nil, started: Timestamp.now(), software: software)
        try catalogue.record(step(newest, "bb", .failed))
        try catalogue.record(step(newest, "cc", .done))
        // A command's run (no job file) is not a job run: it does not hide the failures of the last one.
        _ = try catalogue.beginRun(job: "caption", jobPath: nil, jobHash: nil, started: Timestamp.now(), software: software)

        let file = try TestSupport.write("thumbnail bytes", to: "thumbnails/aa/aa.jpg", in: folder)
        try catalogue.record(Rendition(photo: "aa", kind: .thumbnail, parametersHash: "p", inputHash: "i", path: file,
                                       fileHash: "f", width: 1, height: 1, bytes: 15, run: older))
        // A recorded thumbnail whose file is gone does not count: that photo is missing one.
        try catalogue.record(Rendition(photo: "bb", kind: .thumbnail, parametersHash: "p", inputHash: "i",
                                       path: folder + "/thumbnails/bb/gone.jpg", fileHash: "f", width: 1, height: 1,
                                       bytes: 15, run: older))

        let all = try catalogue.allPhotos()
        let missing = try Selection(missing: .thumbnail).resolved(in: catalogue)
        XCTAssertEqual(Set(all.filter(missing.matches).map(\.id)), ["bb", "cc", "dd"])
        XCTAssertEqual(Set(all.filter(try Selection(missing: .export).resolved(in: catalogue).matches).map(\.id)), ["aa", "bb", "cc", "dd"])
        let failed = try Selection(failed: .lastRun).resolved(in: catalogue)
        XCTAssertEqual(all.filter(failed.matches).map(\.id), ["bb"])
        let both = try Selection(missing: .thumbnail, failed: .lastRun).resolved(in: catalogue)
        XCTAssertEqual(all.filter(both.matches).map(\.id), ["bb"])
        XCTAssertTrue(missing.matches(photo("new")), "a photo imported after resolving is missing everything")
        XCTAssertFalse(failed.matches(photo("new")), "and failed in no earlier run")
        XCTAssertEqual(missing.canonical.text, #"{"missing":"thumbnail"}"#, "facts are not parameters")
    }

    func testTheJobFileReadsMissingAndFailedAndRejectsOtherValues() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try TestSupport.write("""
            version: 1
            select: {failed: last-run}
            stages:
              - thumbnail: {select: {missing: thumbnail}}
            """, to: "good.yml", in: folder)
        let job = try JobLoader.load(path: folder + "/good.yml")
        XCTAssertEqual(job.select?.failed, .lastRun)
        XCTAssertEqual(job.stages.first?.select?.missing, .thumbnail)

        try TestSupport.write("version: 1\nselect: {missing: thumbnails}\nstages:\n  - thumbnail: {}\n", to: "bad.yml", in: folder)
        let bad = try TestSupport.album(["check", "bad.yml"], in: folder)
        XCTAssertEqual(bad.status, 2)
        XCTAssert(bad.stderr.contains("select.missing must be one of thumbnail, export, found 'thumbnails'; did you mean 'thumbnail'?"), bad.stderr)
    }
}
