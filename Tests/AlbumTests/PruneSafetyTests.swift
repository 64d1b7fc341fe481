import Foundation
import XCTest

/// What a review of issue 16 found `album prune` and the states could lose, each through the built binary on
/// generated photos and a real SQLite file: the only copy of an edited original's earlier bytes (`mode: copy`), a
/// photo whose bytes a touched alias still holds, the exports a failed run with new parameters had not redone yet,
/// and a damage mark cleared by a run that decoded nothing.
final class PruneSafetyTests: XCTestCase, DrivesAlbum {
    func job(_ stages: String, in folder: String, name: String = "job.yml") throws {
        try TestSupport.write("version: 1\ncatalogue: album\nstages:\n" + stages, to: name, in: folder)
    }

    /// An original edited in place under `mode: copy`: the catalogue's copy of its earlier bytes is the only one
    /// left. prune keeps that version, gc keeps its copy, and verify still checks the copy.
    func testAnEarlierVersionsCopyIsKeptAndVerified() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try Fixture.jpeg(at: "\(folder)/photos/p1.jpg", width: 96, height: 64, variant: 1)
        let before = try Tool.sha256("\(folder)/photos/p1.jpg")
        try job("  - import: {from: photos, mode: copy}\n  - thumbnail: {size: 32x32}\n", in: folder)
        _ = try album(["run", "job.yml"], in: folder)
        try Fixture.jpeg(at: "\(folder)/photos/p1.jpg", width: 96, height: 64, variant: 2)  // edited in place
        _ = try album(["run", "job.yml"], in: folder)

        _ = try album(["prune", "--catalogue", "album"], in: folder)
        _ = try album(["gc", "--catalogue", "album"], in: folder)
        let copies = try FileManager.default.subpathsOfDirectory(atPath: "\(folder)/album/originals")
            .filter { $0.hasSuffix(".jpeg") || $0.hasSuffix(".jpg") }
        XCTAssert(try copies.contains { try Tool.sha256("\(folder)/album/originals/\($0)") == before },
                  "the earlier bytes' only copy survives prune and gc: \(copies)")
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT count(*) FROM photos"), ["2"], "the earlier version is kept")

        let copy = try XCTUnwrap(copies.first { try Tool.sha256("\(folder)/album/originals/\($0)") == before })
        try Data([0xFF, 0xD8]).write(to: URL(fileURLWithPath: "\(folder)/album/originals/\(copy)"))
        let verify = try album(["verify", "--catalogue", "album"], in: folder, status: 1)
        XCTAssert(verify.stdout.contains("catalogue's copy of the original"), verify.stdout)
    }

    /// The photo's own file deleted and its alias only touched (same bytes, new time): the photo is not missing,
    /// and prune forgets nothing.
    func testATouchedAliasStillHoldsItsPhoto() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try Fixture.jpeg(at: "\(folder)/photos/a.jpg", width: 96, height: 64, variant: 1)
        try FileManager.default.copyItem(atPath: "\(folder)/photos/a.jpg", toPath: "\(folder)/photos/b.jpg")
        try job("  - import: {from: photos}\n  - thumbnail: {size: 32x32}\n", in: folder)
        _ = try album(["run", "job.yml"], in: folder)
        let primary = try XCTUnwrap(Probe.rows(folder + "/album", "SELECT path FROM photos").first)
        let alias = try XCTUnwrap(Probe.rows(folder + "/album", "SELECT path FROM aliases").first)
        try FileManager.default.removeItem(atPath: folder + "/" + primary.dropFirst(3))
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)],
                                              ofItemAtPath: folder + "/" + alias.dropFirst(3))

        let listed = try album(["ls", "--catalogue", "album", "--json"], in: folder)
        let photos = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(photos.map { $0["state"] as? String }, ["ok"], listed.stdout)
        _ = try album(["prune", "--catalogue", "album"], in: folder)
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT count(*) FROM photos"), ["1"], "the photo is kept")
    }

    /// A run with a new export quality that fails every export (each photo's folder cannot be made: a file holds
    /// its name under a writable export folder, so the run starts and every export fails) redid nothing: prune
    /// keeps the exports the last good run made.
    func testAFailedRunWithNewParametersLeavesTheWorkingExportsAlone() throws {
        let folder = try TestSupport.temporaryFolder(self)
        for index in 1...2 { try Fixture.jpeg(at: "\(folder)/photos/p\(index).jpg", width: 96, height: 64, variant: index) }
        try job("  - import: {from: photos}\n  - export: {to: \"out/{name}.jpg\", quality: 80}\n", in: folder)
        _ = try album(["run", "job.yml"], in: folder)
        try FileManager.default.createDirectory(atPath: "\(folder)/blocked", withIntermediateDirectories: true)
        for index in 1...2 { try Data("not a folder".utf8).write(to: URL(fileURLWithPath: "\(folder)/blocked/p\(index)")) }
        try job("  - import: {from: photos}\n  - export: {to: \"blocked/{name}/{name}.jpg\", quality: 60}\n", in: folder)
        let failed = try album(["run", "job.yml"], in: folder, status: 1)
        XCTAssertTrue(failed.stderr.contains("export failed"), failed.stderr)

        _ = try album(["prune", "--catalogue", "album"], in: folder)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: "\(folder)/out").sorted(), ["p1.jpg", "p2.jpg"])
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT count(*) FROM renditions WHERE kind = 'export'"), ["2"])
    }

    /// `--retry-damaged` on a job whose stages decode nothing (a look only) keeps the photo damaged: its pixels
    /// were not shown to decode.
    func testRetryingWithoutDecodingKeepsTheDamage() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let whole = try Data(contentsOf: URL(fileURLWithPath: try Fixture.jpeg(at: "\(folder)/whole.jpg", width: 320, height: 200, variant: 3)))
        try FileManager.default.createDirectory(atPath: "\(folder)/photos", withIntermediateDirectories: true)
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: "\(folder)/photos/cut.jpg"))
        try job("  - import: {from: photos}\n  - thumbnail: {size: 32x32}\n", in: folder)
        _ = try album(["run", "job.yml"], in: folder, status: 1)
        try job("  - filter: {preset: noir}\n", in: folder, name: "look.yml")
        _ = try album(["run", "look.yml", "--retry-damaged"], in: folder)
        let damaged = try album(["ls", "--catalogue", "album", "--state", "damaged"], in: folder)
        XCTAssert(damaged.stderr.contains("1 photo"), damaged.stdout + damaged.stderr)
    }

    /// A copy made before an original was edited in place holds the earlier version's bytes: reruns leave that
    /// version alone (it is superseded: no chain, no export, exit 0 every time), and prune keeps it, since its bytes
    /// are still on disk under that name. (`album plan` still counts the copy as a new photo: docs/catalogue.md.)
    func testACopyOfAnEarlierVersionNeitherFailsRunsNorIsPruned() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try Fixture.jpeg(at: "\(folder)/photos/b.jpg", width: 96, height: 64, variant: 1)
        try FileManager.default.copyItem(atPath: "\(folder)/photos/b.jpg", toPath: "\(folder)/photos/0orig.jpg")
        try job("  - import: {from: photos}\n  - thumbnail: {size: 32x32}\n  - export: {to: \"out/{name}.jpg\"}\n", in: folder)
        _ = try album(["run", "job.yml"], in: folder)
        try Fixture.jpeg(at: "\(folder)/photos/b.jpg", width: 96, height: 64, variant: 2)  // b.jpg edited in place
        for _ in 1...3 { _ = try album(["run", "job.yml", "--workers", "1"], in: folder) }
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT count(*) FROM steps WHERE status = 'failed'"), ["0"])
        _ = try album(["verify", "--catalogue", "album"], in: folder)
        _ = try album(["prune", "--catalogue", "album"], in: folder)
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT count(*) FROM photos"), ["2"], "the earlier version is kept")
    }
}
