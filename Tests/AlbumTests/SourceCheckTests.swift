import Foundation
import XCTest

/// A missing or empty import root is an error, not a success: through the built binary, for `run`, `import` and
/// `plan`, on generated photos.
final class SourceCheckTests: XCTestCase {
    /// A root that does not exist: exit 2 naming it, and no catalogue folder, for the shipped nightly job, for
    /// `album import` and for `album plan`.
    func testAMissingRootIsExitTwoAndCreatesNoCatalogue() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let missing = folder + "/no/such/folder"
        let job = JobFileTests.jobsFolder + "/nightly-reprocess.yml"
        for arguments in [["run", job, "--set", "LIBRARY=\(missing)"], ["plan", job, "--set", "LIBRARY=\(missing)"],
                          ["run", job, "--set", "LIBRARY=\(missing)", "--allow-empty"],
                          ["import", missing, "--catalogue", folder + "/catalogue"]] {
            let result = try TestSupport.album(arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("the import root \(missing) does not exist"), result.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/no"), "\(arguments) made a folder")
            XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/catalogue"), "\(arguments) made a catalogue")
        }
        // A file is still a root.
        try Fixture.jpeg(at: folder + "/one.jpg", width: 64, height: 48)
        let file = try TestSupport.album(["import", folder + "/one.jpg", "--catalogue", folder + "/catalogue"])
        XCTAssertEqual(file.status, 0, file.stderr)
        XCTAssertEqual(try Probe.rows(folder + "/catalogue", "SELECT count(*) FROM photos"), ["1"])
    }

    /// An empty folder where the catalogue knows photos from it (an unmounted share): exit 1 with "is it
    /// mounted?", nothing recorded; `--allow-empty` runs anyway. A first run on an empty folder is fine.
    func testAnEmptyRootWhereTheCatalogueKnowsPhotosIsExitOne() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let library = folder + "/share"
        try FileManager.default.createDirectory(atPath: library, withIntermediateDirectories: true)
        try TestSupport.write("""
            version: 1
            catalogue: album
            stages:
              - import: {from: share}
              - thumbnail: {size: 32x32}
            """, to: "job.yml", in: folder)
        let empty = try TestSupport.album(["run", "job.yml"], in: folder)
        XCTAssertEqual(empty.status, 0, "a catalogue that knows nothing from it: \(empty.stderr)")
        for index in 0..<3 { try Fixture.jpeg(at: "\(library)/p\(index).jpg", width: 64, height: 48, variant: index) }
        XCTAssertEqual(try TestSupport.album(["run", "job.yml"], in: folder).status, 0)
        try FileManager.default.moveItem(atPath: library, toPath: folder + "/elsewhere")
        try FileManager.default.createDirectory(atPath: library, withIntermediateDirectories: true)
        let runsBefore = try Probe.rows(folder + "/album", "SELECT count(*) FROM runs")
        let message = "no photos found in \(library), where the catalogue knows 3; is it mounted?"
        for arguments in [["run", "job.yml"], ["plan", "job.yml"], ["run", "job.yml", "--dry-run"],
                          ["import", "share", "--catalogue", "album"]] {
            let result = try TestSupport.album(arguments, in: folder)
            XCTAssertEqual(result.status, 1, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT count(*) FROM runs"), runsBefore, "no run was recorded")
        for arguments in [["run", "job.yml", "--allow-empty"], ["plan", "job.yml", "--allow-empty"],
                          ["import", "share", "--catalogue", "album", "--allow-empty"]] {
            let result = try TestSupport.album(arguments, in: folder)
            XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
        }
        // Files that are not photos do not make it a library again.
        try TestSupport.write("x", to: "share/notes.txt", in: folder)
        XCTAssertEqual(try TestSupport.album(["run", "job.yml"], in: folder).status, 1)
        // Mounted again: the run goes on.
        try FileManager.default.removeItem(atPath: library)
        try FileManager.default.moveItem(atPath: folder + "/elsewhere", toPath: library)
        let back = try TestSupport.album(["run", "job.yml"], in: folder)
        XCTAssertEqual(back.status, 0, back.stderr)
    }
}
