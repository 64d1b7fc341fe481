import Foundation
import SQLite
import XCTest
@testable import Catalogue

/// Issue 30 and issue 29's item 5: what a power cut leaves (docs/catalogue.md, "Durability"), through the built binary.
///
/// The cuts themselves run on powerfs (tools/powercut: a FUSE file system that keeps only what was fsynced); `make
/// test-power` cuts 24 runs, and `testPowerCutsKeepEveryPromise` here a few, so that `make mutate` can name it. The
/// other tests set up, by hand, what a cut leaves behind: a row marked as being written, temporary files and
/// unrecorded exports in the export folder.
final class PowerLossTests: XCTestCase {
    /// A job over two photos that exports each at full size into `out/`, in the look `${LOOK}` (sepia by default).
    func makeJob(in folder: String) throws {
        try Fixture.jpeg(at: "\(folder)/photos/storm.jpg", taken: "2008:04:20 19:12:06")
        try Fixture.jpeg(at: "\(folder)/photos/wood.jpg", width: 200, height: 300)
        try writeJob("job.yml", exportingTo: "out", in: folder)
        let run = try TestSupport.album(["run", "job.yml"], in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
    }

    /// The job file: the photos in the look `${LOOK}`, exported at full size under `root`.
    func writeJob(_ name: String, exportingTo root: String, in folder: String) throws {
        try TestSupport.write("""
            version: 1
            name: power
            vars: {LOOK: sepia}
            stages:
              - import: {from: photos}
              - filter: {preset: "${LOOK}"}
              - export: {to: "\(root)/{name}.jpg"}
            """, to: name, in: folder)
    }

    func testTheWriterSyncsEveryCommit() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let catalogue = try Catalogue(folder: folder + "/album", create: true, writing: true)
        defer { catalogue.close() }
        // 2 is FULL: in WAL mode, NORMAL (1) leaves a commit in the unsynced log, where a power cut takes it back.
        XCTAssertEqual(try catalogue.database.query("PRAGMA synchronous") { $0.int(0) }, [2])
    }

    /// A cut between the durable mark and the new row leaves the row marked, and the file holding the old bytes or the
    /// new: verify lists it as unfinished (exit 0), and the next run, in another look, replaces it. Its export tag is
    /// removed first, as a file system without extended attributes would keep none: the mark alone says it is ours.
    func testVerifyListsAnExportARunWasReplacingAndTheNextRunReplacesIt() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try makeJob(in: folder)
        let storm = folder + "/out/storm.jpg"
        let sepia = try Data(contentsOf: URL(fileURLWithPath: storm))
        let database = try Database(path: folder + "/album/" + Catalogue.databaseName, mode: .readWrite)
        try database.run("UPDATE renditions SET bytes = -1 WHERE kind = 'export' AND path LIKE '%/storm.jpg'")
        database.close()
        try Process.run(URL(fileURLWithPath: "/usr/bin/python3"),
                        arguments: ["-c", "import os, sys; [os.removexattr(sys.argv[1], n) for n in os.listxattr(sys.argv[1])]", storm]).waitUntilExit()

        let verify = try TestSupport.album(["verify"], in: folder)
        XCTAssertEqual(verify.status, 0, "a file a stopped run was writing is not a problem: \(verify.stdout)\(verify.stderr)")
        XCTAssert(verify.stdout.contains("\(storm): unfinished: run 1 was writing this export when it stopped"), verify.stdout)
        XCTAssertEqual(verify.stdout.components(separatedBy: "unfinished:").count, 2, "only the marked file: \(verify.stdout)")
        let json = try TestSupport.album(["verify", "--json"], in: folder)
        XCTAssert(json.stdout.contains("\"unfinished\""), json.stdout)
        XCTAssert(json.stdout.contains(storm), json.stdout)

        let rerun = try TestSupport.album(["run", "job.yml", "--set", "LOOK=noir"], in: folder)
        XCTAssertEqual(rerun.status, 0, "the marked row says the file is this catalogue's own: \(rerun.stderr)")
        XCTAssertNotEqual(try Data(contentsOf: URL(fileURLWithPath: storm)), sepia, "replaced with the noir export")
        let after = try TestSupport.album(["verify"], in: folder)
        XCTAssertEqual(after.status, 0, after.stdout + after.stderr)
        XCTAssertFalse(after.stdout.contains("unfinished"), after.stdout)
    }

    /// Item 5 of issue 29: a run killed (or cut) while `out/.NAME.album-XXXXXX` exists leaves it there; `gc JOBFILE`
    /// removes it, and an export this catalogue tagged whose row was taken back, but nothing else in the folder.
    func testGcWithTheJobRemovesAlbumsLeftoversUnderItsExportRoots() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try makeJob(in: folder)
        try TestSupport.write("half written", to: "out/.storm.jpg.album-Ab12Cd", in: folder)
        try TestSupport.write("half written", to: "out/deeper/.x.jpg.album-Zz99Yy", in: folder)
        try TestSupport.write("the user's", to: "out/notes.jpg", in: folder)
        try TestSupport.write("not under a root", to: "elsewhere/.y.jpg.album-Qq11Ww", in: folder)
        // An export whose row a cut took back: album's tag on it, no row.
        let copy = try Process.run(URL(fileURLWithPath: "/bin/cp"), arguments: ["--preserve=xattr", folder + "/out/wood.jpg", folder + "/out/orphan.jpg"])
        copy.waitUntilExit()

        let plain = try TestSupport.album(["gc"], in: folder)
        XCTAssertEqual(plain.status, 0, plain.stderr)
        XCTAssertFalse(plain.stdout.contains("out/"), "without a job, gc stays in the catalogue: \(plain.stdout)")

        let dry = try TestSupport.album(["gc", "job.yml", "--dry-run"], in: folder)
        XCTAssertEqual(dry.status, 0, dry.stderr)
        XCTAssertEqual(dry.stdout, """
            would remove \(folder)/out/.storm.jpg.album-Ab12Cd (an unfinished temporary file)
            would remove \(folder)/out/deeper/.x.jpg.album-Zz99Yy (an unfinished temporary file)
            would remove \(folder)/out/orphan.jpg (no row refers to it)

            """)
        let gc = try TestSupport.album(["gc", "job.yml"], in: folder)
        XCTAssertEqual(gc.status, 0, gc.stderr)
        let left = try FileManager.default.subpathsOfDirectory(atPath: folder + "/out").sorted()
        XCTAssertEqual(left, ["deeper", "notes.jpg", "storm.jpg", "wood.jpg"])
        XCTAssert(FileManager.default.fileExists(atPath: folder + "/elsewhere/.y.jpg.album-Qq11Ww"), "outside the roots")
        XCTAssertEqual(try TestSupport.album(["verify"], in: folder).status, 0)
        let rerun = try TestSupport.album(["run", "job.yml"], in: folder)
        XCTAssertEqual(rerun.status, 0, rerun.stderr)
    }

    /// An export the user edited is kept by `rm` (it changed since album wrote it) and is theirs from then on: rm
    /// takes album's tag off it, so `gc JOBFILE` never deletes it as an unrecorded leftover. And a job whose export
    /// root is reached through a symbolic link (the same folder spelled another way) finds nothing to delete.
    func testGcJobFileKeepsAnEditedExportRmKeptAndRecordedExportsReachedThroughALink() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try makeJob(in: folder)
        try FileManager.default.createSymbolicLink(atPath: folder + "/linked", withDestinationPath: folder + "/out")
        try writeJob("linked.yml", exportingTo: "linked", in: folder)
        let throughLink = try TestSupport.album(["gc", "linked.yml", "--dry-run"], in: folder)
        XCTAssertEqual(throughLink.status, 0, throughLink.stderr)
        XCTAssertEqual(throughLink.stdout, "", "recorded exports are known by their file, whatever path reaches it")

        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: folder + "/out/wood.jpg"))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("the user's edit".utf8))
        try handle.close()
        let removed = try TestSupport.album(["rm", "photos/wood.jpg"], in: folder)
        XCTAssertEqual(removed.status, 0, removed.stderr)
        XCTAssertTrue(removed.stderr.contains("kept"), removed.stderr)
        let gc = try TestSupport.album(["gc", "job.yml"], in: folder)
        XCTAssertEqual(gc.status, 0, gc.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder + "/out/wood.jpg"), "the edited export is kept: \(gc.stdout)")
    }

    /// A few cuts on powerfs (tools/powercut/powercut.py): the checks of issue 30's "Done when" after each.
    func testPowerCutsKeepEveryPromise() throws {
        guard FileManager.default.fileExists(atPath: "/dev/fuse") else {
            throw XCTSkip("the power-loss test needs /dev/fuse, which this machine does not have")
        }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("tools/powercut/powercut.py").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [script, TestSupport.albumBinary, "--cuts", "2"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        print(output)
        if output.hasPrefix("SKIPPED:") { throw XCTSkip(output) }
        XCTAssertEqual(process.terminationStatus, 0, output)
        XCTAssert(output.contains("every check held"), output)
    }
}
