import Foundation
import XCTest

/// A catalogue or export folder this user cannot write (issue 29, item 19): the run stops before any photo with one
/// message in errno's words that names the folder and says what to do; never Foundation's "The operation could not
/// be completed", never one failed export per photo. Tests run as root, who ignores file modes, so album runs as
/// nobody (setpriv), as in `ReadOnlyCatalogueTests`.
final class UnwritableFolderTests: XCTestCase {
    let nobody = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]

    /// A folder nobody may write in (`work`, with three photos and a job exporting to `to`), beside `locked`, a
    /// folder only root may write.
    func makeFolder(exportTo to: String, catalogue: String? = nil) throws -> (work: String, locked: String) {
        try XCTSkipUnless(getuid() == 0, "needs root, to run album as another user")
        let folder = try TestSupport.temporaryFolder(self)
        XCTAssertEqual(chmod(folder, 0o755), 0)
        let work = folder + "/work", locked = folder + "/locked"
        for i in 0..<3 { try Fixture.jpeg(at: "\(work)/photos/p\(i).jpg", width: 96, height: 64, variant: i) }
        try TestSupport.write("""
            version: 1
            name: unwritable
            \(catalogue.map { "catalogue: \($0)\n" } ?? "")stages:
              - import: {from: photos}
              - thumbnail: {size: 32x32}
              - export: {to: "\(to)"}
            """, to: "job.yml", in: work)
        try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: true)
        XCTAssertEqual(chmod(work, 0o777), 0)
        XCTAssertEqual(chmod(locked, 0o755), 0)
        return (work, locked)
    }

    func occurrences(of words: String, in text: String) -> Int { text.components(separatedBy: words).count - 1 }

    func testAnExportFolderThatCannotBeCreatedStopsTheRunWithOneMessage() throws {
        let (work, locked) = try makeFolder(exportTo: "../locked/out/{name}.jpg")
        let run = try TestSupport.album(["run", "job.yml"], in: work, through: nobody)
        XCTAssertEqual(run.status, 3, run.stderr)
        let words = "the export folder \(locked)/out cannot be created: \(locked) is not writable (Permission denied); nothing was run. "
            + "Make it writable for this user, or change the export stage's `to:`"
        XCTAssertEqual(occurrences(of: words, in: run.stderr), 1, run.stderr)
        XCTAssertFalse(run.stderr.contains("export failed"), "no failure per photo: \(run.stderr)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: work + "/album"), "nothing was run, no catalogue made")

        // Made writable, the same job runs and exports every photo.
        XCTAssertEqual(chmod(locked, 0o777), 0)
        let again = try TestSupport.album(["run", "job.yml"], in: work, through: nobody)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: locked + "/out").filter { $0.hasSuffix(".jpg") }.count, 3)
    }

    func testAnExportFolderThatIsNotWritableStopsTheRunWithOneMessage() throws {
        let (work, locked) = try makeFolder(exportTo: "../locked/{name}.jpg")
        let run = try TestSupport.album(["run", "job.yml"], in: work, through: nobody)
        XCTAssertEqual(run.status, 3, run.stderr)
        XCTAssertEqual(occurrences(of: "the export folder \(locked) is not writable (Permission denied); nothing was run", in: run.stderr), 1,
                       run.stderr)
        XCTAssertFalse(run.stderr.contains("export failed"), run.stderr)
    }

    func testACatalogueFolderThatCannotBeCreatedSaysWhyInErrnosWordsAndWhatToDo() throws {
        let (work, locked) = try makeFolder(exportTo: "out/{name}.jpg", catalogue: "../locked/catalogue")
        for command in [["run", "job.yml"], ["import", "photos", "--catalogue", locked + "/catalogue"]] {
            let result = try TestSupport.album(command, in: work, through: nobody)
            XCTAssertEqual(result.status, 3, result.stderr)
            XCTAssert(result.stderr.contains("album: error: cannot create catalogue folder \(locked)/catalogue: Permission denied in \(locked). "
                                             + "Make \(locked) writable for this user, or choose another folder with --catalogue DIR"),
                      "album \(command.joined(separator: " ")): \(result.stderr)")
            XCTAssertFalse(result.stderr.contains("could not be completed"), result.stderr)
        }
    }
}
