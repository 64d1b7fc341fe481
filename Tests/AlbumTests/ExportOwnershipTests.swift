import CSystem
import Foundation
import Glibc
import XCTest

/// An export belongs to one catalogue (issue 16, problem 9): two jobs, identical but for their catalogues and a
/// thumbnail quality, export `{name}.jpg` into one folder, one after the other and both at once, through the built
/// binary. Each file's tag names the catalogue that wrote it; `if-exists` treats another catalogue's file like any
/// file album did not write; `rm` in one never deletes the other's files; `verify` says where each stands.
final class ExportOwnershipTests: XCTestCase {
    static let photoCount = 6

    /// Photos, and the jobs `a.yml` (catalogue `cat-a`) and `b.yml` (`cat-b`), exporting into `out/`.
    func library(ifExists: String) throws -> String {
        let folder = try TestSupport.temporaryFolder(self)
        for n in 0..<ExportOwnershipTests.photoCount {
            try Fixture.jpeg(at: "\(folder)/photos/p\(n).jpg", variant: n + 1)
        }
        for (name, quality) in [("a", 80), ("b", 70)] {
            try TestSupport.write("""
                version: 1
                catalogue: cat-\(name)
                stages:
                  - import: {from: photos}
                  - thumbnail: {size: 64x64, quality: \(quality)}
                  - export: {to: "out/{name}.jpg", if-exists: \(ifExists)}
                """ + "\n", to: "\(name).yml", in: folder)
        }
        return folder
    }

    /// The catalogue's id, as its database keeps it.
    func identity(_ folder: String, _ name: String) throws -> String {
        let rows = try Probe.rows("\(folder)/cat-\(name)", "SELECT id FROM identity")
        XCTAssertEqual(rows.count, 1, "one identity row")
        return try XCTUnwrap(rows.first)
    }

    /// The names of the files in `out/`, each with the catalogue id its tag names.
    func exported(_ folder: String) throws -> [String: String] {
        var owners: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder + "/out") {
            owners[name] = ExportOwnershipTests.catalogueTag(of: "\(folder)/out/\(name)") ?? "untagged"
        }
        return owners
    }

    /// The catalogue id in an export's tag, read with getxattr(2) as any tool would.
    static func catalogueTag(of path: String) -> String? {
        var buffer = [UInt8](repeating: 0, count: 128)
        let length = getxattr(path, "user.album.catalogue", &buffer, buffer.count)
        return length > 0 ? String(decoding: buffer.prefix(length), as: UTF8.self) : nil
    }

    /// The names of the export files catalogue `name` records.
    func recorded(_ folder: String, _ name: String) throws -> Set<String> {
        Set(try Probe.rows("\(folder)/cat-\(name)", "SELECT path FROM renditions WHERE kind = 'export'")
            .map { ($0 as NSString).lastPathComponent })
    }

    func verify(_ folder: String, _ name: String) throws -> (status: Int32, output: String) {
        let result = try TestSupport.album(["verify", "--catalogue", "cat-\(name)"], in: folder)
        return (result.status, result.stdout + result.stderr)
    }

    func testSkipRefusesTheOtherCataloguesFilesOneAfterTheOther() throws {
        let folder = try library(ifExists: "skip")
        let first = try TestSupport.album(["run", "a.yml"], in: folder)
        XCTAssertEqual(first.status, 0, first.stderr)
        let a = try identity(folder, "a"), b = try identity(folder, "b")
        XCTAssertNotEqual(a, b, "each catalogue has its own id")
        XCTAssertNotNil(a.range(of: "^[0-9a-f]{32}$", options: .regularExpression), a)
        let before = try exported(folder)
        XCTAssertEqual(Set(before.values), [a], "every export is tagged with the catalogue that wrote it")

        let second = try TestSupport.album(["run", "b.yml"], in: folder)
        XCTAssertEqual(second.status, 1, "the second catalogue is refused where the first owns the file\n\(second.stderr)")
        XCTAssert(second.stderr.contains("was exported by another catalogue (id \(a), at \(folder)/cat-a)"), second.stderr)
        XCTAssertEqual(try exported(folder), before, "nothing of the first catalogue's was replaced")
        XCTAssertEqual(try recorded(folder, "b"), [], "the refused catalogue records none of the other's files")
        XCTAssertEqual(try verify(folder, "a").status, 0)
        XCTAssertEqual(try verify(folder, "b").status, 0)
        XCTAssertEqual(try identity(folder, "a"), a, "the id stays after later runs")
    }

    func testRenameWritesBesideAndRmDeletesOnlyItsOwnFiles() throws {
        let folder = try library(ifExists: "rename")
        for job in ["a.yml", "b.yml"] {
            let result = try TestSupport.album(["run", job], in: folder)
            XCTAssertEqual(result.status, 0, result.stderr)
        }
        let a = try identity(folder, "a"), b = try identity(folder, "b")
        let owners = try exported(folder)
        XCTAssertEqual(owners.count, 2 * ExportOwnershipTests.photoCount, "the second writes beside the first: \(owners)")
        XCTAssertEqual(Set(owners.filter { $0.value == a }.keys), try recorded(folder, "a"))
        XCTAssertEqual(Set(owners.filter { $0.value == b }.keys), try recorded(folder, "b"))
        let besides = try recorded(folder, "b")
        XCTAssert(besides.allSatisfy { $0.hasSuffix("-1.jpg") }, "\(besides)")
        XCTAssertEqual(try verify(folder, "a").status, 0)
        XCTAssertEqual(try verify(folder, "b").status, 0)
        // A rerun of each finds its own files and does nothing.
        let rerun = try TestSupport.album(["run", "b.yml"], in: folder)
        XCTAssertEqual(rerun.status, 0, rerun.stderr)
        XCTAssertEqual(try exported(folder), owners)

        // rm in b deletes b's exports and none of a's.
        // Sorted: two dictionaries with the same keys need not list them in the same order (Swift seeds each one).
        let aFiles = owners.filter { $0.value == a }.keys.sorted()
        let hashes = try aFiles.map { try TestSupport.hash("\(folder)/out/\($0)") }
        let ids = try Probe.rows("\(folder)/cat-b", "SELECT id FROM photos")
        let removed = try TestSupport.album(["rm", "--catalogue", "cat-b"] + ids, in: folder)
        XCTAssertEqual(removed.status, 0, removed.stderr)
        XCTAssertEqual(try exported(folder).values.sorted(), Array(repeating: a, count: ExportOwnershipTests.photoCount))
        XCTAssertEqual(try aFiles.map { try TestSupport.hash("\(folder)/out/\($0)") }, hashes)
        XCTAssertEqual(try verify(folder, "a").status, 0)
    }

    func testOverwriteReplacesAndTheOtherCataloguesVerifySaysSoAndItsRmKeepsTheFile() throws {
        let folder = try library(ifExists: "overwrite")
        for job in ["a.yml", "b.yml"] {
            let result = try TestSupport.album(["run", job], in: folder)
            XCTAssertEqual(result.status, 0, result.stderr)
        }
        let b = try identity(folder, "b")
        XCTAssertEqual(Set(try exported(folder).values), [b], "overwrite replaces, as asked")
        XCTAssertEqual(try exported(folder).count, ExportOwnershipTests.photoCount)
        XCTAssertEqual(try verify(folder, "b").status, 0)
        let verified = try verify(folder, "a")
        XCTAssertEqual(verified.status, 1, "the first catalogue's exports are no longer its own")
        XCTAssert(verified.output.contains("another catalogue (id \(b)) exported over it"), verified.output)
        // rm in a keeps b's files, and says why.
        let ids = try Probe.rows("\(folder)/cat-a", "SELECT id FROM photos")
        let removed = try TestSupport.album(["rm", "--catalogue", "cat-a"] + ids, in: folder)
        XCTAssertEqual(removed.status, 0, removed.stderr)
        XCTAssert(removed.stderr.contains("another catalogue exported it since (id \(b))"), removed.stderr)
        XCTAssertEqual(try exported(folder).count, ExportOwnershipTests.photoCount, "rm in one never deletes the other's files")
        XCTAssertEqual(try verify(folder, "b").status, 0)
    }

    func testGcKeepsFilesAnotherCatalogueExportedIntoItsFolders() throws {
        let folder = try library(ifExists: "skip")
        let first = try TestSupport.album(["run", "a.yml"], in: folder)
        XCTAssertEqual(first.status, 0, first.stderr)
        try TestSupport.write(try String(contentsOfFile: folder + "/b.yml", encoding: .utf8)
            .replacingOccurrences(of: "out/{name}.jpg", with: "cat-a/filtered/zz/{name}.jpg"), to: "b.yml", in: folder)
        let second = try TestSupport.album(["run", "b.yml"], in: folder)
        XCTAssertEqual(second.status, 0, second.stderr)
        let inside = try FileManager.default.contentsOfDirectory(atPath: folder + "/cat-a/filtered/zz").sorted()
        XCTAssertEqual(inside.count, ExportOwnershipTests.photoCount)
        let gc = try TestSupport.album(["gc", "--catalogue", "cat-a"], in: folder)
        XCTAssertEqual(gc.status, 0, gc.stderr)
        XCTAssert(gc.stderr.contains("another catalogue exported it (id \(try identity(folder, "b")))"), gc.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder + "/cat-a/filtered/zz").sorted(), inside,
                       "gc never deletes another catalogue's files, even inside its own folders")
        XCTAssertEqual(try verify(folder, "b").status, 0)
    }

    /// Both jobs started together, several times: with skip, each name is written once, by one catalogue, and
    /// the other is refused; with rename, every photo of each gets its own file. No file is overwritten by the
    /// other catalogue (its bytes and tag are the ones its catalogue recorded: verify exits 0).
    func testTwoCataloguesExportingAtOnceNeverOverwriteEachOther() throws {
        for ifExists in ["skip", "rename"] {
            for round in 0..<3 {
                let folder = try library(ifExists: ifExists)
                let children = try ["a.yml", "b.yml"].map {
                    try Spawn(["run", $0, "--workers", "2"], in: folder, stdout: .null, stderr: .log("\(folder)/\($0).log"))
                }
                let endings = children.map { $0.wait() }
                let owners = try exported(folder)
                let a = try identity(folder, "a"), b = try identity(folder, "b")
                let what = "\(ifExists), round \(round): \(endings), \(owners)"
                XCTAssertEqual(Set(owners.filter { $0.value == a }.keys), try recorded(folder, "a"), what)
                XCTAssertEqual(Set(owners.filter { $0.value == b }.keys), try recorded(folder, "b"), what)
                XCTAssertEqual(try verify(folder, "a").status, 0, what)
                XCTAssertEqual(try verify(folder, "b").status, 0, what)
                if ifExists == "skip" {
                    XCTAssertEqual(owners.count, ExportOwnershipTests.photoCount, what)
                    XCTAssert(endings.allSatisfy { $0 == .exited(0) || $0 == .exited(1) }, what)
                    let failures = try ["a", "b"].map { try Probe.rows("\(folder)/cat-\($0)", "SELECT count(*) FROM steps WHERE stage = 'export' AND status = 'failed'").first ?? "" }
                    XCTAssertEqual(failures.compactMap { Int($0) }.reduce(0, +), ExportOwnershipTests.photoCount,
                                   "each name is refused to exactly one of the two: \(what)")
                } else {
                    XCTAssertEqual(endings, [.exited(0), .exited(0)], what)
                    XCTAssertEqual(owners.count, 2 * ExportOwnershipTests.photoCount, what)
                }
            }
        }
    }

    /// A tag written before catalogues had ids (the photo's hash only) is trusted by the catalogue that records the
    /// file, and taken for another catalogue's by any other.
    func testAnOldTagIsTrustedWhereTheFileIsRecordedAndRefusedElsewhere() throws {
        let folder = try library(ifExists: "skip")
        let first = try TestSupport.album(["run", "a.yml"], in: folder)
        XCTAssertEqual(first.status, 0, first.stderr)
        for name in try exported(folder).keys {
            XCTAssertEqual(removexattr("\(folder)/out/\(name)", "user.album.catalogue"), 0, "an older album's tag")
            XCTAssertEqual(removexattr("\(folder)/out/\(name)", "user.album.catalogue-folder"), 0)
        }
        XCTAssertEqual(Set(try exported(folder).values), ["untagged"])
        // Its own catalogue replaces them (a new quality: new bytes), trusting the old tags of the files it records.
        try TestSupport.write(try String(contentsOfFile: folder + "/a.yml", encoding: .utf8)
            .replacingOccurrences(of: "if-exists: skip", with: "if-exists: skip, quality: 80"), to: "a.yml", in: folder)
        let replaced = try TestSupport.album(["run", "a.yml"], in: folder)
        XCTAssertEqual(replaced.status, 0, replaced.stderr)
        XCTAssertEqual(try Probe.rows(folder + "/cat-a", "SELECT count(*) FROM steps WHERE stage = 'export' AND status = 'done'"),
                       ["\(2 * ExportOwnershipTests.photoCount)"], "each export written again")
        XCTAssertEqual(Set(try exported(folder).values), [try identity(folder, "a")], "and tagged anew")
        XCTAssertEqual(try verify(folder, "a").status, 0)
        for name in try exported(folder).keys {
            XCTAssertEqual(removexattr("\(folder)/out/\(name)", "user.album.catalogue"), 0)
        }
        let other = try TestSupport.album(["run", "b.yml"], in: folder)
        XCTAssertEqual(other.status, 1, other.stderr)
        XCTAssert(other.stderr.contains("was exported by another album catalogue (an older album's tag, which names none)"), other.stderr)
        XCTAssertEqual(try recorded(folder, "b"), [])
    }

    /// Problem 10: a look switch on photos whose new look's image already exists is work done, not "up to date".
    func testALookSwitchIsCountedDone() throws {
        let folder = try TestSupport.temporaryFolder(self)
        for n in 0..<4 { try Fixture.jpeg(at: "\(folder)/photos/p\(n).jpg", variant: n + 1) }
        var filter: [String] = []
        for preset in ["noir", "sepia", "noir", "noir"] {
            try TestSupport.write("version: 1\ncatalogue: album\nstages:\n  - import: {from: photos}\n  - filter: {preset: \(preset)}\n",
                                  to: "job.yml", in: folder)
            let result = try TestSupport.album(["run", "job.yml"], in: folder)
            XCTAssertEqual(result.status, 0, result.stderr)
            let line = (result.stdout + result.stderr).split(separator: "\n").first { $0.hasPrefix("  filter ") }
            filter.append(line.map { $0.split(separator: " ").prefix(4).joined(separator: " ") } ?? "")
        }
        XCTAssertEqual(filter, ["filter 4 0 0", "filter 4 0 0", "filter 4 0 0", "filter 0 4 0"],
                       "back to noir finds its images made, and switches the photos to it: done; noir again: skipped")
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT DISTINCT filter FROM photos"), ["noir"])
    }
}
