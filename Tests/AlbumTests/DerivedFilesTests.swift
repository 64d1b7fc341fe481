import Foundation
import XCTest

/// Import never takes album's own files for photos: its catalogue folder, the job's export roots, and any file
/// carrying album's export tag. Through the built binary, on generated photos, with the catalogue read back by the
/// sqlite3 shell (`Probe`).
final class DerivedFilesTests: XCTestCase {
    /// Twelve photos: eight taken in summer 2024 (which the shipped job's `select:` takes), four in winter.
    func library(in folder: String) throws -> (summer: Int, all: Int) {
        for index in 0..<12 {
            let summer = index < 8
            let taken = summer ? "2024:07:\(String(format: "%02d", index + 1)) 10:00:00" : "2023:01:\(String(format: "%02d", index + 1)) 10:00:00"
            try Fixture.jpeg(at: "\(folder)/lib/\(index < 6 ? "" : "trip/")p\(index).jpg", width: 96, height: 64, taken: taken, variant: index)
        }
        return (8, 12)
    }

    func count(_ catalogue: String, _ sql: String) throws -> Int {
        Int(try Probe.rows(catalogue, sql).first ?? "") ?? -1
    }

    /// Every file under `folder`, album's hidden ones aside, relative to it.
    func files(under folder: String) -> [String] {
        let walker = FileManager.default.enumerator(atPath: folder)
        var found: [String] = []
        while let next = walker?.nextObject() as? String {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder + "/" + next, isDirectory: &isFolder), !isFolder.boolValue,
               !next.split(separator: "/").contains(where: { $0.hasPrefix(".") }) {
                found.append(next)
            }
        }
        return found.sorted()
    }

    /// Runs the shipped job three times with OUT at `out` and checks each run: one photo per original, every
    /// export written once (in the first run), later runs do nothing; and that `plan` after them has nothing to do.
    func assertShippedJobRunsThreeTimes(out: (String) -> String, file: StaticString = #filePath, line: UInt = #line) throws {
        let folder = try TestSupport.temporaryFolder(self)
        let counts = try library(in: folder)
        let job = JobFileTests.jobsFolder + "/summer-sepia.yml"
        let set = ["--set", "SRC=\(folder)/lib", "--set", "OUT=\(out(folder))"]
        let catalogue = folder + "/lib/.album"
        for runNumber in 1...3 {
            let result = try TestSupport.album(["run", job] + set)
            XCTAssertEqual(result.status, 0, "run \(runNumber): \(result.stderr)", file: file, line: line)
            XCTAssertEqual(try count(catalogue, "SELECT count(*) FROM photos"), counts.all,
                           "run \(runNumber): one photo per original", file: file, line: line)
            XCTAssertEqual(try count(catalogue, "SELECT count(*) FROM steps WHERE stage = 'export' AND status = 'done'"),
                           counts.summer, "run \(runNumber): each export written once, in the first run", file: file, line: line)
            XCTAssertEqual(files(under: out(folder)).count, counts.summer, "run \(runNumber): \(files(under: out(folder)))",
                           file: file, line: line)
            XCTAssertFalse(files(under: out(folder)).contains { $0.contains("2024-07-0") && $0.split(separator: "-").count > 4 },
                           "no export of an export: \(files(under: out(folder)))", file: file, line: line)
        }
        let plan = try TestSupport.album(["plan", job] + set)
        XCTAssertEqual(plan.status, 0, plan.stderr, file: file, line: line)
        for row in plan.stdout.split(separator: "\n") where row.hasPrefix("  import") || row.hasPrefix("  export") {
            XCTAssertEqual(row.split(separator: " ").dropFirst().first, "0", "nothing to do: \(plan.stdout)", file: file, line: line)
        }
    }

    /// The shipped job, as shipped: its exports go beside the library, not into it.
    func testTheShippedSummerSepiaJobRunsThreeTimesWithOnePhotoPerOriginal() throws {
        try assertShippedJobRunsThreeTimes(out: { $0 + "/summer-sepia" })
        let text = try String(contentsOfFile: JobFileTests.jobsFolder + "/summer-sepia.yml", encoding: .utf8)
        XCTAssertFalse(text.contains("to: \"${SRC}/"), "the shipped job exports outside its import root")
    }

    /// The layout the job used to ship with, exports under the import root: the export root is never imported.
    func testExportsUnderTheImportRootAreNeverImported() throws {
        try assertShippedJobRunsThreeTimes(out: { $0 + "/lib/summer-sepia" })
    }

    /// Where exports carry no tag (a file system without xattrs, simulated by removing it), the export root
    /// alone keeps them out: the shipped job's old layout, exports under the import root, three runs.
    func testWithoutTheTagTheExportRootAloneKeepsExportsOut() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let counts = try library(in: folder)
        let job = JobFileTests.jobsFolder + "/summer-sepia.yml"
        let set = ["--set", "SRC=\(folder)/lib", "--set", "OUT=\(folder)/lib/sepia"]
        for runNumber in 1...3 {
            let result = try TestSupport.album(["run", job] + set)
            XCTAssertEqual(result.status, 0, "run \(runNumber): \(result.stderr)")
            let untag = try Tool.run(["python3", "-c", """
                import os, sys
                for name in os.listdir(sys.argv[1]):
                    path = os.path.join(sys.argv[1], name)
                    for attribute in os.listxattr(path): os.removexattr(path, attribute)
                    assert not os.listxattr(path)
                """, folder + "/lib/sepia"])
            XCTAssertEqual(untag.status, 0, untag.stderr)
            XCTAssertEqual(try count(folder + "/lib/.album", "SELECT count(*) FROM photos"), counts.all, "run \(runNumber)")
            XCTAssertEqual(files(under: folder + "/lib/sepia").count, counts.summer, "run \(runNumber)")
        }
    }

    /// A catalogue folder that is not hidden, under the import root, is skipped and counted; so is an export
    /// carried elsewhere with its tag (`cp --preserve=xattr`), which only the tag says is album's.
    func testTheCatalogueFolderAndTaggedFilesAreSkippedAndCounted() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try Fixture.jpeg(at: "\(folder)/lib/a.jpg", width: 96, height: 64, variant: 1)
        try Fixture.jpeg(at: "\(folder)/lib/b.jpg", width: 96, height: 64, variant: 2)
        try TestSupport.write("""
            version: 1
            catalogue: lib/catalogue
            stages:
              - import: {from: lib}
              - thumbnail: {size: 32x32}
              - export: {from: thumbnail, to: "out/{name}.jpg"}
            """, to: "job.yml", in: folder)
        let first = try TestSupport.album(["run", "job.yml"], in: folder)
        XCTAssertEqual(first.status, 0, first.stderr)
        // A tagged export copied into the library, under a name of its own.
        let copy = try Tool.run(["cp", "--preserve=xattr", "\(folder)/out/a.jpg", "\(folder)/lib/copied-export.jpg"])
        XCTAssertEqual(copy.status, 0, copy.stderr)
        let tagged = try Tool.run(["python3", "-c", "import os,sys; print('user.album.photo' in os.listxattr(sys.argv[1]))", "\(folder)/lib/copied-export.jpg"])
        XCTAssertEqual(tagged.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "True", "this file system keeps the tag: \(tagged.stderr)")
        let plan = try TestSupport.album(["plan", "job.yml", "-v"], in: folder)
        XCTAssertEqual(plan.status, 0, plan.stderr)
        XCTAssertFalse(plan.stdout.contains("copied-export"), plan.stdout)
        XCTAssertFalse(plan.stdout.contains("/catalogue/"), plan.stdout)
        let thumbnails = files(under: folder + "/lib/catalogue").filter { $0.hasSuffix(".jpg") || $0.hasSuffix(".webp") }.count
        XCTAssertGreaterThan(thumbnails, 0)
        let sentence = "skipped \(thumbnails + 1) files album wrote itself (its catalogue, its exports)"
        XCTAssertTrue(plan.stdout.contains(sentence), plan.stdout)
        let rerun = try TestSupport.album(["run", "job.yml", "--log-format", "json"], in: folder)
        XCTAssertEqual(rerun.status, 0, rerun.stderr)
        XCTAssertEqual(try count(folder + "/lib/catalogue", "SELECT count(*) FROM photos"), 2)
        let finished = try XCTUnwrap(rerun.stdout.split(separator: "\n").last.flatMap {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        })
        let passedOver = try XCTUnwrap(finished["passed_over"] as? [String: Any], "\(finished)")
        XCTAssertEqual(passedOver["derived"] as? Int, thumbnails + 1)
        // The same job in text: the summary says it.
        let text = try TestSupport.album(["run", "job.yml"], in: folder)
        XCTAssertTrue(text.stderr.contains(sentence), text.stderr)
    }

    /// Exports written beside their originals (the export root is the import root): the root is still walked, and
    /// the export tag alone keeps the exports out, run after run.
    func testExportsBesideTheirOriginalsAreKeptOutByTheirTag() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try Fixture.jpeg(at: "\(folder)/lib/a.jpg", width: 96, height: 64, variant: 1)
        try Fixture.jpeg(at: "\(folder)/lib/b.jpg", width: 96, height: 64, variant: 2)
        try TestSupport.write("""
            version: 1
            catalogue: album
            stages:
              - import: {from: lib}
              - thumbnail: {size: 32x32}
              - export: {from: thumbnail, to: "lib/{name}-small.jpg"}
            """, to: "job.yml", in: folder)
        for runNumber in 1...3 {
            let result = try TestSupport.album(["run", "job.yml"], in: folder)
            XCTAssertEqual(result.status, 0, "run \(runNumber): \(result.stderr)")
            XCTAssertEqual(try count(folder + "/album", "SELECT count(*) FROM photos"), 2, "run \(runNumber)")
            XCTAssertEqual(files(under: folder + "/lib"), ["a-small.jpg", "a.jpg", "b-small.jpg", "b.jpg"], "run \(runNumber)")
        }
        let plan = try TestSupport.album(["plan", "job.yml"], in: folder)
        XCTAssertTrue(plan.stdout.contains("skipped 2 files album wrote itself"), plan.stdout)
    }

    /// Files that match no include pattern are counted by extension, in the text summary, in `run-finished` and in
    /// the plan; hidden files and excluded files are not (they were left out on purpose).
    func testIgnoredFilesAreCountedByExtension() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try Fixture.jpeg(at: "\(folder)/lib/a.jpg", width: 96, height: 64, variant: 1)
        try Fixture.jpeg(at: "\(folder)/lib/skip.jpg", width: 96, height: 64, variant: 2)
        for name in ["x.pdf", "sub/y.PDF", "z.svg", "README", ".hidden.pdf", "w.bmp", "v.pdf"] {
            try TestSupport.write("not a photo", to: "lib/" + name, in: folder)
        }
        try TestSupport.write("""
            version: 1
            catalogue: album
            stages:
              - import: {from: lib, exclude: ["skip.*"]}
            """, to: "job.yml", in: folder)
        let sentence = "ignored 6 files that match no include pattern: pdf 3, (no extension) 1, bmp 1, svg 1"
        let plan = try TestSupport.album(["plan", "job.yml"], in: folder)
        XCTAssertEqual(plan.status, 0, plan.stderr)
        XCTAssertTrue(plan.stdout.contains(sentence), plan.stdout)
        let text = try TestSupport.album(["run", "job.yml"], in: folder)
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertTrue(text.stderr.contains(sentence), text.stderr)
        let json = try TestSupport.album(["run", "job.yml", "--log-format", "json"], in: folder)
        let finished = try XCTUnwrap(json.stdout.split(separator: "\n").last.flatMap {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        })
        let passedOver = try XCTUnwrap(finished["passed_over"] as? [String: Any], "\(finished)")
        XCTAssertEqual(passedOver["ignored"] as? [String: Int], ["pdf": 3, "": 1, "bmp": 1, "svg": 1])
        XCTAssertEqual(passedOver["derived"] as? Int, 0)
    }
}
