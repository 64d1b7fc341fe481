import Foundation
import XCTest

/// Every exported file stays under its root, the folder before `to:`'s first token (issue 29, items 6 and 7),
/// through the built binary: a symbolic link inside the root that leads out of it is refused, naming the link, while
/// a root that is itself a link, or a link that stays inside, is followed; and a template whose fixed text climbs
/// out of its root is an error of `album check`, at its place in the job file.
final class ExportRootTests: XCTestCase {
    /// photos/a.jpg and photos/b.jpg, and job.yml exporting them to `template`.
    func library(_ template: String) throws -> String {
        let folder = try TestSupport.temporaryFolder(self)
        try Fixture.jpeg(at: "\(folder)/photos/a.jpg", variant: 1)
        try Fixture.jpeg(at: "\(folder)/photos/b.jpg", width: 160, height: 240, variant: 2)
        try TestSupport.write("""
            version: 1
            catalogue: album
            stages:
              - import: {from: photos}
              - export: {to: "\(template)"}
            """ + "\n", to: "job.yml", in: folder)
        return folder
    }

    /// The regular files under `folder`, relative to it, sorted (links are not followed).
    func files(under folder: String) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: folder)
        var found: [String] = []
        while let name = enumerator?.nextObject() as? String {
            if (enumerator?.fileAttributes?[.type] as? FileAttributeType) == .typeRegular { found.append(name) }
        }
        return found.sorted()
    }

    func testALinkInsideTheRootThatLeadsOutIsRefusedAndNamed() throws {
        let folder = try library("out/{name}/{id}.jpg")
        try FileManager.default.createDirectory(atPath: "\(folder)/elsewhere", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: "\(folder)/out", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: "\(folder)/out/a", withDestinationPath: "../elsewhere")
        let run = try TestSupport.album(["run", "job.yml"], in: folder)
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertEqual(files(under: "\(folder)/elsewhere"), [], "nothing was written through the link")
        XCTAssert(run.stderr.contains("\(folder)/out/a is a symbolic link to \(folder)/elsewhere, outside the export folder \(folder)/out"),
                  run.stderr)
        XCTAssertEqual(files(under: "\(folder)/out").count, 1, "b's export, under a folder of its own: \(files(under: "\(folder)/out"))")
        XCTAssert(files(under: "\(folder)/out").allSatisfy { $0.hasPrefix("b/") })

        // A rerun refuses it again; with the link made a folder, the export is written there.
        XCTAssertEqual(try TestSupport.album(["run", "job.yml"], in: folder).status, 1)
        try FileManager.default.removeItem(atPath: "\(folder)/out/a")
        let fixed = try TestSupport.album(["run", "job.yml"], in: folder)
        XCTAssertEqual(fixed.status, 0, fixed.stderr)
        XCTAssertEqual(files(under: "\(folder)/out").map { String($0.prefix(2)) }, ["a/", "b/"])
        XCTAssertEqual(files(under: "\(folder)/elsewhere"), [])
    }

    func testALinkWhoseTextStartsInsideAndADanglingLinkAreRefusedToo() throws {
        let folder = try library("out/{name}/{id}.jpg")
        try FileManager.default.createDirectory(atPath: "\(folder)/out/a", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: "\(folder)/out/inside", withIntermediateDirectories: true)
        // out/b -> inside/../../elsewhere: a link whose text starts inside and ends outside.
        try FileManager.default.createDirectory(atPath: "\(folder)/elsewhere", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: "\(folder)/out/b", withDestinationPath: "inside/../../elsewhere")
        let run = try TestSupport.album(["run", "job.yml"], in: folder)
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssert(run.stderr.contains("\(folder)/out/b is a symbolic link to \(folder)/elsewhere"), run.stderr)
        XCTAssertEqual(files(under: "\(folder)/elsewhere"), [])

        try FileManager.default.removeItem(atPath: "\(folder)/out/b")
        try FileManager.default.createSymbolicLink(atPath: "\(folder)/out/b", withDestinationPath: "\(folder)/nowhere/yet")
        let dangling = try TestSupport.album(["run", "job.yml"], in: folder)
        XCTAssertEqual(dangling.status, 1, dangling.stderr)
        XCTAssert(dangling.stderr.contains("\(folder)/out/b is a symbolic link to a path that does not exist"), dangling.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: "\(folder)/nowhere"), "nothing was made where it points")
    }

    func testARootThatIsALinkAndALinkThatStaysInsideAreFollowed() throws {
        let folder = try library("out/{name}/{id}.jpg")
        try FileManager.default.createDirectory(atPath: "\(folder)/disk/site/shared", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: "\(folder)/out", withDestinationPath: "disk/site")
        try FileManager.default.createSymbolicLink(atPath: "\(folder)/disk/site/a", withDestinationPath: "shared")
        let run = try TestSupport.album(["run", "job.yml"], in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(files(under: "\(folder)/disk/site").map { String($0.prefix(2)) }, ["b/", "sh"], "a's export lands in shared/")
        let verify = try TestSupport.album(["verify", "--catalogue", "album"], in: folder)
        XCTAssertEqual(verify.status, 0, verify.stdout + verify.stderr)
    }

    func testCheckRefusesATemplateWhoseFixedPartLeavesItsFolder() throws {
        let folder = try library("out/{name}/../../x/{id}.jpg")
        let check = try TestSupport.album(["check", "job.yml"], in: folder)
        XCTAssertEqual(check.status, 2, check.stdout + check.stderr)
        let output = check.stdout + check.stderr
        XCTAssert(output.contains("job.yml:5:18: error: export.to: its fixed '..' leads outside its folder \(folder)/out"), output)
        let run = try TestSupport.album(["run", "job.yml"], in: folder)
        XCTAssertEqual(run.status, 2, "refused before anything is imported: \(run.stderr)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: "\(folder)/album"), "no catalogue was made")

        // Back to the folder itself is refused too; a `..` that stays under the folder is allowed.
        try TestSupport.write("version: 1\nstages:\n  - import: {from: photos}\n  - export: {to: \"out/{name}/..\"}\n",
                              to: "self.yml", in: folder)
        let itself = try TestSupport.album(["check", "self.yml"], in: folder)
        XCTAssertEqual(itself.status, 2)
        XCTAssert((itself.stdout + itself.stderr).contains("self.yml:4:18: error: export.to: its fixed '..' leads back to its folder"),
                  itself.stdout + itself.stderr)
        try TestSupport.write("version: 1\nstages:\n  - import: {from: photos}\n  - export: {to: \"out/{name}/../{id}.jpg\"}\n",
                              to: "fine.yml", in: folder)
        let fine = try TestSupport.album(["check", "fine.yml"], in: folder)
        XCTAssertEqual(fine.status, 0, fine.stdout + fine.stderr)
    }
}
