import Foundation
import XCTest
import System
@testable import Core
@testable import Catalogue

/// Path globs as the shell's with `**`: `Glob(pathname: true)`, `Selection.pathPattern`, a job's `select: {path:}`
/// relative to the job file's folder, and `ls --path` relative to the current folder.
final class GlobTests: XCTestCase {
    func glob(_ pattern: String, _ path: String) -> Bool { Glob(pattern, pathname: true).matches(path) }

    func testStarQuestionAndBracketsStayInsideOneName() {
        XCTAssertTrue(glob("/p/*.jpg", "/p/a.jpg"))
        XCTAssertFalse(glob("/p/*.jpg", "/p/x/a.jpg"), "* does not cross /")
        XCTAssertFalse(glob("/p*", "/p/a.jpg"))
        XCTAssertTrue(glob("/p/?.jpg", "/p/a.jpg"))
        XCTAssertFalse(glob("/p/?a.jpg", "/p//a.jpg"))
        XCTAssertTrue(glob("/p/r00[1-4].jpg", "/p/r003.jpg"))
        XCTAssertFalse(glob("/p/r00[1-4].jpg", "/p/r005.jpg"))
        XCTAssertTrue(glob("/p/r00[!1-4].jpg", "/p/r005.jpg"))
        XCTAssertFalse(glob("/p/a[/]b", "/p/a/b"), "a bracket never matches /")
        XCTAssertTrue(glob("/p/a**b.jpg", "/p/axxb.jpg"), "** inside a name is *")
        XCTAssertFalse(glob("/p/a**b.jpg", "/p/a/x/b.jpg"))
    }

    func testDoubleStarIsZeroOrMoreFolders() {
        XCTAssertTrue(glob("/p/**/x.jpg", "/p/x.jpg"), "zero folders")
        XCTAssertTrue(glob("/p/**/x.jpg", "/p/a/x.jpg"))
        XCTAssertTrue(glob("/p/**/x.jpg", "/p/a/b/c/x.jpg"))
        XCTAssertFalse(glob("/p/**/x.jpg", "/q/a/x.jpg"))
        XCTAssertFalse(glob("/p/**/x.jpg", "/p/a/xx.jpg"))
        XCTAssertTrue(glob("**/x.jpg", "/any/where/x.jpg"))
        XCTAssertTrue(glob("/a/**/b/*.jpg", "/a/b/1.jpg"))
        XCTAssertTrue(glob("/a/**/b/*.jpg", "/a/x/b/y/b/1.jpg"))
        XCTAssertFalse(glob("/a/**/b/*.jpg", "/a/x/b/y/1.jpg"))
        XCTAssertTrue(glob("/a/**/**/b", "/a/b"))
        XCTAssertTrue(glob("/p/**", "/p/a/b.jpg"), "a trailing ** is everything under the folder")
        XCTAssertFalse(glob("/p/**", "/q/b.jpg"))
        let deep = "/" + Array(repeating: "d", count: 40).joined(separator: "/") + "/x.jpg"
        XCTAssertFalse(glob("/**/d/**/d/**/d/**/e/**/x.jpg", deep), "several ** stay quick when nothing matches")
    }

    func testFileNameGlobsStayFnmatchs() {
        XCTAssertTrue(Glob("*.jpg").matches("a.jpg"))
        XCTAssertTrue(Glob("/p/*.jpg").matches("/p/x/a.jpg"), "without pathname, * crosses / as fnmatch's does")
    }

    func testAPatternWithoutASlashIsAFileNameInAnyFolder() {
        XCTAssertEqual(Selection.pathPattern("*r00[1-4]*", relativeTo: "/jobs"), "/**/*r00[1-4]*")
        XCTAssertEqual(Selection.pathPattern("photos/**/*.jpg", relativeTo: "/jobs"), "/jobs/photos/**/*.jpg")
        XCTAssertEqual(Selection.pathPattern("./*.jpg", relativeTo: "/jobs"), "/jobs/*.jpg")
        XCTAssertEqual(Selection.pathPattern("../photos/*.jpg", relativeTo: "/jobs/x"), "/jobs/photos/*.jpg")
        XCTAssertEqual(Selection.pathPattern("/abs/*.jpg", relativeTo: "/jobs"), "/abs/*.jpg")
        let byName = Selection(path: Selection.pathPattern("*r00[1-4]*", relativeTo: "/jobs"))
        let photo = { (path: String) in
            PhotoRecord(id: "x", hash: "h", path: path, bytes: 1, mtimeNanoseconds: 0, inode: 0, width: 1, height: 1,
                        format: "jpeg", taken: nil, added: "2024-01-01T00:00:00Z", caption: nil, filter: "none",
                        filterRecipe: "[]", camera: nil, orientation: 1, hasGPS: false, replaces: nil, storedPath: nil)
        }
        XCTAssertTrue(byName.matches(photo("/elsewhere/a/b/r002.jpg")))
        XCTAssertTrue(byName.matches(photo("/r004.png")))
        XCTAssertFalse(byName.matches(photo("/elsewhere/r005.jpg")))
        XCTAssertFalse(byName.matches(photo("/elsewhere/r001/a.jpg")), "the file's name, not a folder's")
    }

    /// The photos: photos/a/r001.jpg, photos/a/deep/r002.jpg, photos/b/r003.jpg, photos/r005.jpg; the job in jobs/.
    func library() throws -> String {
        let folder = try TestSupport.temporaryFolder(self)
        for (n, name) in ["a/r001.jpg", "a/deep/r002.jpg", "b/r003.jpg", "r005.jpg"].enumerated() {
            try Fixture.jpeg(at: "\(folder)/photos/\(name)", width: 32, height: 20, variant: n)
        }
        return folder
    }

    func exported(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    func testAJobsSelectPathIsRelativeToTheJobFileWhereverItRuns() throws {
        let folder = try library()
        try TestSupport.write("""
            version: 1
            catalogue: album
            stages:
              - import: {from: ../photos}
              - export: {to: "../out/byname/{name}.jpg", select: {path: "*r00[1-4]*"}}
              - export: {to: "../out/under-a/{name}.jpg", select: {path: "../photos/a/**"}}
              - export: {to: "../out/one-level/{name}.jpg", select: {path: "../photos/*/*.jpg"}}
              - export: {to: "../out/anywhere/{name}.jpg", select: {path: "../photos/**/r00?.jpg"}}
              - export: {to: "../out/none/{name}.jpg", select: {path: "holiday-*.jpg"}}
            """, to: "jobs/pick.yml", in: folder)
        try FileManager.default.createDirectory(atPath: "\(folder)/elsewhere", withIntermediateDirectories: true)

        let plan = try TestSupport.album(["plan", "../jobs/pick.yml"], in: "\(folder)/elsewhere")
        XCTAssertEqual(plan.status, 0, plan.stderr)
        let warning = "album: warning: ../jobs/pick.yml:9:59: export.select.path 'holiday-*.jpg' matches no photo's path (matched as /**/holiday-*.jpg)"
        XCTAssert(plan.stderr.contains(warning), plan.stderr)

        let run = try TestSupport.album(["run", "../jobs/pick.yml"], in: "\(folder)/elsewhere")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssert(run.stderr.contains(warning), "the run says it too:\n\(run.stderr)")
        XCTAssertEqual(exported("\(folder)/out/byname"), ["r001.jpg", "r002.jpg", "r003.jpg"])
        XCTAssertEqual(exported("\(folder)/out/under-a"), ["r001.jpg", "r002.jpg"])
        XCTAssertEqual(exported("\(folder)/out/one-level"), ["r001.jpg", "r003.jpg"])
        XCTAssertEqual(exported("\(folder)/out/anywhere"), ["r001.jpg", "r002.jpg", "r003.jpg", "r005.jpg"])
        XCTAssertEqual(exported("\(folder)/out/none"), [])
        XCTAssertFalse(run.stderr.contains("'*r00[1-4]*'"), "a pattern that matches is not warned about:\n\(run.stderr)")
    }

    func testLsPathIsRelativeToTheCurrentFolder() throws {
        let folder = try library()
        try TestSupport.write("version: 1\ncatalogue: album\nstages:\n  - import: {from: photos}\n", to: "job.yml", in: folder)
        XCTAssertEqual(try TestSupport.album(["run", "job.yml"], in: folder).status, 0)
        func count(_ pattern: String, in cwd: String) throws -> Int {
            let result = try TestSupport.album(["ls", "-c", "\(folder)/album", "-q", "--path", pattern], in: cwd)
            XCTAssertEqual(result.status, 0, result.stderr)
            return result.stdout.split(separator: "\n").count
        }
        XCTAssertEqual(try count("photos/*.jpg", in: folder), 1)
        XCTAssertEqual(try count("photos/**/*.jpg", in: folder), 4)
        XCTAssertEqual(try count("a/**", in: "\(folder)/photos"), 2)
        XCTAssertEqual(try count("*/*.jpg", in: "\(folder)/photos"), 2)
        XCTAssertEqual(try count("*r00[1-4]*", in: "/"), 3, "no slash: the name, in any folder")
        XCTAssertEqual(try count("\(folder)/photos/b/*", in: "/"), 1)
        let none = try TestSupport.album(["ls", "-c", "\(folder)/album", "--path", "photos/zz*"], in: folder)
        XCTAssertEqual(none.status, 0)
        XCTAssert(none.stderr.contains("album: warning: --path 'photos/zz*' matches no photo's path (matched as \(folder)/photos/zz*)"), none.stderr)
    }
}
