import CSystem
import Foundation
import Glibc
import XCTest
@testable import Catalogue

/// Every path gets its export (issue 16, problem 8): the same bytes under two names are one photo with two known
/// paths (aliases), and an export template over `{name}` writes both files. Through the built binary, on generated
/// photos; the catalogue is read with the sqlite3 shell (`Probe`), the exports with djpeg and getxattr(2).
final class AliasTests: XCTestCase {
    /// photos/r001.jpg and its byte-for-byte copy "photos/dup copy.jpg", and photos/other.jpg, another picture;
    /// job.yml imports them, makes thumbnails, and exports `out/{name}.jpg` (and `template` when given).
    func library(template: String = "out/{name}.jpg") throws -> String {
        let folder = try TestSupport.temporaryFolder(self)
        let first = try Fixture.jpeg(at: "\(folder)/photos/r001.jpg", variant: 1)
        try FileManager.default.copyItem(atPath: first, toPath: "\(folder)/photos/dup copy.jpg")
        try Fixture.jpeg(at: "\(folder)/photos/other.jpg", width: 160, height: 240, variant: 2)
        try TestSupport.write("""
            version: 1
            catalogue: album
            stages:
              - import: {from: photos}
              - thumbnail: {size: 64x64}
              - export: {to: "\(template)", quality: 85}
            """ + "\n", to: "job.yml", in: folder)
        return folder
    }

    func run(_ folder: String, _ arguments: [String] = ["run", "job.yml"]) throws -> (status: Int32, stdout: String, stderr: String) {
        try TestSupport.album(arguments, in: folder)
    }

    /// The plan's table: per stage, to do, up to date, left out.
    func plan(_ folder: String) throws -> [String: [Int]] {
        let plan = try run(folder, ["plan", "job.yml"])
        XCTAssertEqual(plan.status, 0, plan.stderr)
        var counts: [String: [Int]] = [:]
        for row in plan.stdout.split(separator: "\n") {
            let fields = row.split(separator: " ")
            guard fields.count == 4, ["import", "filter", "thumbnail", "export"].contains(String(fields[0])) else { continue }
            counts[String(fields[0])] = fields.dropFirst().compactMap { Int($0) }
        }
        return counts
    }

    /// The plan's "to do" column summed over the stages.
    func toDo(_ folder: String) throws -> Int {
        try plan(folder).values.map { $0[0] }.reduce(0, +)
    }

    /// The newest run's steps of `stage`, as "status path" lines, sorted.
    func steps(_ folder: String, _ stage: String) throws -> [String] {
        try Probe.rows(folder + "/album", """
            SELECT status || ' ' || path FROM steps WHERE stage = '\(stage)' AND run = (SELECT max(id) FROM runs)
            """).sorted()
    }

    /// The value of an extended attribute, read with getxattr(2) as any tool would.
    static func tag(_ name: String, of path: String) -> String? {
        var buffer = [UInt8](repeating: 0, count: 256)
        let length = getxattr(path, name, &buffer, buffer.count)
        return length > 0 ? String(decoding: buffer.prefix(length), as: UTF8.self) : nil
    }

    /// Checks that `export` is `original`'s picture: its size, and each quadrant's mean colour within JPEG's error,
    /// both decoded by djpeg.
    func assertPicture(_ export: String, isThatOf original: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let made = try Probe.decodeJPEG(export), source = try Probe.decodeJPEG(original)
        XCTAssertEqual([made.width, made.height], [source.width, source.height], export, file: file, line: line)
        let w = source.width, h = source.height
        for (columns, rows) in [(4..<w / 2 - 4, 4..<h / 2 - 4), (w / 2 + 4..<w - 4, 4..<h / 2 - 4),
                                (4..<w / 2 - 4, h / 2 + 4..<h - 4), (w / 2 + 4..<w - 4, h / 2 + 4..<h - 4)] {
            for (a, b) in zip(made.mean(columns: columns, rows: rows), source.mean(columns: columns, rows: rows)) {
                XCTAssertEqual(a, b, accuracy: 4, "\(export): quadrant \(columns)×\(rows)", file: file, line: line)
            }
        }
    }

    func testTwoNamesWithTheSameBytesAreOnePhotoAndEachGetsItsExport() throws {
        let folder = try library()
        let first = try run(folder)
        XCTAssertEqual(first.status, 0, first.stderr)
        let hash = try Tool.sha256("\(folder)/photos/r001.jpg")
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT count(*) FROM photos WHERE hash = '\(hash)'"), ["1"],
                       "one photo for the two names")
        let paths = try Probe.rows(folder + "/album", "SELECT path FROM photos WHERE hash = '\(hash)' UNION ALL SELECT path FROM aliases")
        XCTAssertEqual(Set(paths), ["../photos/r001.jpg", "../photos/dup copy.jpg"], "the photo's path and its alias, stored relative")
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT count(*) FROM renditions WHERE kind = 'thumbnail'"), ["2"],
                       "a thumbnail per photo, not per name")

        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder + "/out").sorted(), ["dup copy.jpg", "other.jpg", "r001.jpg"])
        let identity = try XCTUnwrap(Probe.rows(folder + "/album", "SELECT id FROM identity").first)
        for name in ["r001", "dup copy"] {
            let export = "\(folder)/out/\(name).jpg"
            try assertPicture(export, isThatOf: "\(folder)/photos/\(name).jpg")
            XCTAssertEqual(AliasTests.tag("user.album.photo", of: export), hash, "\(name): album's export tag names the photo")
            XCTAssertEqual(AliasTests.tag("user.album.catalogue", of: export), identity, "\(name): and this catalogue")
        }
        try assertPicture("\(folder)/out/other.jpg", isThatOf: "\(folder)/photos/other.jpg")
        XCTAssertEqual(try Probe.rows(folder + "/album", """
            SELECT count(*) FROM renditions r JOIN photos p ON p.id = r.photo WHERE r.kind = 'export' AND p.hash = '\(hash)'
            """), ["2"], "each name's export is the photo's rendition")
        XCTAssertEqual(try run(folder, ["verify", "--catalogue", "album"]).status, 0)

        // A rerun: nothing to do, nothing done, no alias row rewritten.
        let aliasRow = try Probe.rows(folder + "/album", "SELECT * FROM aliases")
        XCTAssertEqual(try toDo(folder), 0)
        let rerun = try run(folder)
        XCTAssertEqual(rerun.status, 0, rerun.stderr)
        XCTAssertEqual(try Probe.rows(folder + "/album", """
            SELECT count(*) FROM steps WHERE status != 'skipped' AND run = (SELECT max(id) FROM runs)
            """), ["0"], "a no-op rerun does nothing")
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT * FROM aliases"), aliasRow)
        XCTAssertEqual(try toDo(folder), 0)
    }

    /// A rerun knows an alias by its stat, as it knows the photo's own file (`FileIdentity`): one rewritten in place
    /// with other bytes but the same size, inode and modification time is not read, so nothing changes.
    func testAnAliasUnchangedInItsStatIsNotReadAgain() throws {
        let folder = try library()
        XCTAssertEqual(try run(folder).status, 0)
        let stored = try XCTUnwrap(Probe.rows(folder + "/album", "SELECT path FROM aliases").first)
        let alias = folder + "/" + stored.dropFirst(3)
        let aliasRow = try Probe.rows(folder + "/album", "SELECT * FROM aliases")
        XCTAssertEqual(try Tool.run(["cp", "-p", alias, folder + "/times"]).status, 0)
        let handle = try XCTUnwrap(FileHandle(forUpdatingAtPath: alias))
        try handle.seek(toOffset: 400)
        try handle.write(contentsOf: Data([0x5A, 0xA5, 0x5A, 0xA5]))
        try handle.close()
        XCTAssertEqual(try Tool.run(["touch", "-r", folder + "/times", alias]).status, 0)
        XCTAssertNotEqual([try Tool.sha256(alias)], try Probe.rows(folder + "/album", "SELECT hash FROM photos WHERE id = (SELECT photo FROM aliases)"),
                          "its bytes are not the photo's any more")

        XCTAssertEqual(try toDo(folder), 0, "the plan does not read it")
        let rerun = try run(folder)
        XCTAssertEqual(rerun.status, 0, rerun.stderr)
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT count(*) FROM photos"), ["2"], "the run does not read it")
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT * FROM aliases"), aliasRow)
        XCTAssertEqual(try Probe.rows(folder + "/album", """
            SELECT count(*) FROM steps WHERE status != 'skipped' AND run = (SELECT max(id) FROM runs)
            """), ["0"])
    }

    func testShowListsAPhotosAliases() throws {
        let folder = try library()
        XCTAssertEqual(try run(folder).status, 0)
        let hash = try Tool.sha256("\(folder)/photos/r001.jpg")
        let row = try XCTUnwrap(Probe.rows(folder + "/album", "SELECT id || '|' || path FROM photos WHERE hash = '\(hash)'").first)
        let id = String(row.prefix { $0 != "|" })
        let alias = row.hasSuffix("r001.jpg") ? "\(folder)/photos/dup copy.jpg" : "\(folder)/photos/r001.jpg"
        let text = try run(folder, ["show", String(id.prefix(8)), "--catalogue", "album"])
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssert(text.stdout.split(separator: "\n").contains { $0.hasPrefix("alias ") && $0.hasSuffix(" " + alias) }, text.stdout)
        let json = try run(folder, ["show", id, "--catalogue", "album", "--json"])
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let photo = try XCTUnwrap(object["photo"] as? [String: Any])
        XCTAssertEqual(photo["aliases"] as? [String], [alias])
    }

    func testAThirdCopyAddedLaterGetsItsExportOnTheNextRun() throws {
        let folder = try library()
        XCTAssertEqual(try run(folder).status, 0)
        try FileManager.default.copyItem(atPath: "\(folder)/photos/r001.jpg", toPath: "\(folder)/photos/third.jpg")
        let plan = try self.plan(folder)
        XCTAssertEqual(plan["import"], [1, 3, 0], "the copy is to import; the two known names are unchanged")
        XCTAssertEqual(plan["thumbnail"], [0, 2, 0], "a copy needs no thumbnail of its own")
        XCTAssertEqual(plan["export"], [1, 2, 0], "its export is to do")
        let second = try run(folder)
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertEqual(try steps(folder, "export").filter { $0.hasPrefix("done") }, ["done \(folder)/photos/third.jpg"])
        XCTAssertEqual(try steps(folder, "thumbnail").filter { !$0.hasPrefix("skipped") }, [], "no new thumbnail")
        try assertPicture("\(folder)/out/third.jpg", isThatOf: "\(folder)/photos/third.jpg")
        XCTAssertEqual(AliasTests.tag("user.album.photo", of: "\(folder)/out/third.jpg"), try Tool.sha256("\(folder)/photos/third.jpg"))
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT count(*) FROM aliases"), ["2"])
        XCTAssertEqual(try toDo(folder), 0)
        XCTAssertEqual(try run(folder, ["verify", "--catalogue", "album"]).status, 0)
    }

    func testADeletedAliasFailsNothingAndIsFoundMissing() throws {
        let folder = try library()
        XCTAssertEqual(try run(folder).status, 0)
        let alias = try XCTUnwrap(Probe.rows(folder + "/album", "SELECT path FROM aliases").first)
        let aliasPath = folder + "/" + alias.dropFirst(3)
        let aliasName = ((aliasPath as NSString).lastPathComponent as NSString).deletingPathExtension
        let before = try Tool.sha256("\(folder)/out/\(aliasName).jpg")
        try FileManager.default.removeItem(atPath: aliasPath)
        XCTAssertEqual(try toDo(folder), 0, "a gone alias has nothing to do")
        let rerun = try run(folder)
        XCTAssertEqual(rerun.status, 0, rerun.stderr)
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT count(*) FROM steps WHERE status = 'failed'"), ["0"])
        XCTAssertEqual(try run(folder, ["verify", "--catalogue", "album"]).status, 0)

        // A new quality: the photo's own export is refreshed, the gone alias's is left as it was.
        let job = try String(contentsOfFile: folder + "/job.yml", encoding: .utf8)
        try job.replacingOccurrences(of: "quality: 85", with: "quality: 60").write(toFile: folder + "/job.yml", atomically: true, encoding: .utf8)
        let requality = try run(folder)
        XCTAssertEqual(requality.status, 0, requality.stderr)
        XCTAssertEqual(try steps(folder, "export").filter { $0.hasPrefix("done") }.count, 2, "r001's (or dup copy's) and other's")
        XCTAssertEqual(try Tool.sha256("\(folder)/out/\(aliasName).jpg"), before, "the gone alias's export is not refreshed")
        XCTAssertEqual(try run(folder, ["verify", "--catalogue", "album"]).status, 0)

        // What `album prune` calls: the gone alias is found, and forgotten.
        let catalogue = try Catalogue(folder: folder + "/album", create: false, writing: true)
        defer { catalogue.close() }
        let missing = try catalogue.missingAliases()
        XCTAssertEqual(missing.map(\.path), [aliasPath])
        try catalogue.forgetAliases(missing)
        XCTAssertEqual(try catalogue.missingAliases(), [])
        XCTAssertEqual(try catalogue.allAliases(), [])
    }

    /// The first name deleted, the copy holds the photo's bytes: it becomes the photo's path, unread, and the photo
    /// is not left missing while its bytes are there.
    func testThePhotosOwnFileDeletedMakesItsAliasItsPath() throws {
        let folder = try library()
        XCTAssertEqual(try run(folder).status, 0)
        let hash = try Tool.sha256("\(folder)/photos/r001.jpg")
        let photoPath = try XCTUnwrap(Probe.rows(folder + "/album", "SELECT path FROM photos WHERE hash = '\(hash)'").first)
        let alias = try XCTUnwrap(Probe.rows(folder + "/album", "SELECT path FROM aliases").first)
        try FileManager.default.removeItem(atPath: folder + "/" + photoPath.dropFirst(3))
        XCTAssertEqual(try toDo(folder), 0, "the alias's export is there; the gone name's is not refreshed")
        let rerun = try run(folder)
        XCTAssertEqual(rerun.status, 0, rerun.stderr)
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT path FROM photos WHERE hash = '\(hash)'"), [alias])
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT count(*) FROM aliases"), ["0"])
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT count(*) FROM steps WHERE status = 'failed'"), ["0"])
        XCTAssertEqual(try toDo(folder), 0)
        XCTAssertEqual(try run(folder, ["verify", "--catalogue", "album"]).status, 0)
    }

    /// Before any rerun, a photo whose own file is gone while its alias holds the bytes is not `missing`: `ls` says
    /// ok, verify passes, and `album prune` keeps the photo (forgetting it would lose the name that still has it).
    func testAPhotoHeldByItsAliasIsNotMissingAndPruneKeepsIt() throws {
        let folder = try library()
        XCTAssertEqual(try run(folder).status, 0)
        let hash = try Tool.sha256("\(folder)/photos/r001.jpg")
        let id = try XCTUnwrap(Probe.rows(folder + "/album", "SELECT id FROM photos WHERE hash = '\(hash)'").first)
        let photoPath = try XCTUnwrap(Probe.rows(folder + "/album", "SELECT path FROM photos WHERE id = '\(id)'").first)
        try FileManager.default.removeItem(atPath: folder + "/" + photoPath.dropFirst(3))

        let listed = try run(folder, ["ls", "--catalogue", "album", "--json"])
        let photos = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(photos.first { $0["id"] as? String == id }?["state"] as? String, "ok", listed.stdout)
        let verify = try run(folder, ["verify", "--catalogue", "album"])
        XCTAssertEqual(verify.status, 0, verify.stdout + verify.stderr)
        let pruned = try run(folder, ["prune", "--catalogue", "album", "--json"])
        XCTAssertEqual(pruned.status, 0, pruned.stderr)
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT count(*) FROM photos WHERE id = '\(id)'"), ["1"], pruned.stdout)
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT count(*) FROM aliases WHERE photo = '\(id)'"), ["1"])
    }

    /// An alias's file overwritten with another picture is that picture's name now: the old photo's export is not
    /// written there (its file changed since it was recorded as an alias), the new photo's is, and verify passes.
    func testAnAliasOverwrittenWithAnotherPictureExportsThatPicture() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try Fixture.jpeg(at: "\(folder)/photos/z.jpg", variant: 1)
        try TestSupport.write("""
            version: 1
            catalogue: album
            stages:
              - import: {from: photos}
              - filter: {preset: sepia}
              - thumbnail: {size: 64x64}
              - export: {to: "out/{name}.jpg"}
            """ + "\n", to: "job.yml", in: folder)
        XCTAssertEqual(try run(folder).status, 0)
        try FileManager.default.copyItem(atPath: "\(folder)/photos/z.jpg", toPath: "\(folder)/photos/b.jpg")
        XCTAssertEqual(try run(folder).status, 0)  // b.jpg: an alias of z's photo, with its export
        try FileManager.default.removeItem(atPath: "\(folder)/photos/b.jpg")
        try Fixture.jpeg(at: "\(folder)/photos/b.jpg", width: 200, height: 120, variant: 7)  // another picture
        let rerun = try run(folder, ["run", "job.yml", "--workers", "1"])
        XCTAssertEqual(rerun.status, 0, rerun.stderr)
        let header = try Probe.header("\(folder)/out/b.jpg")
        XCTAssertEqual([header.width, header.height], [200, 120], "the export under that name is the new picture's")
        let verify = try run(folder, ["verify", "--catalogue", "album"])
        XCTAssertEqual(verify.status, 0, verify.stdout + verify.stderr)
        XCTAssertEqual(try toDo(folder), 0)
    }

    /// `album prune` forgets an alias whose file is gone (its row; the photo and its other files stay), says so in
    /// `--json`, and a dry run first forgets nothing.
    func testPruneForgetsAGoneAlias() throws {
        let folder = try library()
        XCTAssertEqual(try run(folder).status, 0)
        let alias = try XCTUnwrap(Probe.rows(folder + "/album", "SELECT path FROM aliases").first)
        try FileManager.default.removeItem(atPath: folder + "/" + alias.dropFirst(3))
        let dry = try run(folder, ["prune", "--catalogue", "album", "--dry-run", "--json"])
        XCTAssertEqual(dry.status, 0, dry.stderr)
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT count(*) FROM aliases"), ["1"], "a dry run forgets nothing")
        let pruned = try run(folder, ["prune", "--catalogue", "album", "--json"])
        XCTAssertEqual(pruned.status, 0, pruned.stderr)
        let summary = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(pruned.stdout.utf8)) as? [String: Any])
        XCTAssertEqual((summary["aliases"] as? [[String: Any]])?.compactMap { $0["path"] as? String }, [folder + "/" + alias.dropFirst(3)])
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT count(*) FROM aliases"), ["0"])
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT count(*) FROM photos"), ["2"], "both photos stay")
        XCTAssertEqual(try run(folder, ["verify", "--catalogue", "album"]).status, 0)
    }

    /// New bytes under an alias's name are a new photo: the alias is forgotten, and the export under that name,
    /// this catalogue's file for the old photo that no longer claims it, becomes the new photo's.
    func testAnAliasRewrittenWithOtherBytesIsANewPhotoThatTakesItsExport() throws {
        let folder = try library()
        XCTAssertEqual(try run(folder).status, 0)
        let stored = try XCTUnwrap(Probe.rows(folder + "/album", "SELECT path FROM aliases").first)
        let alias = folder + "/" + stored.dropFirst(3)
        let name = ((alias as NSString).lastPathComponent as NSString).deletingPathExtension
        try Fixture.jpeg(at: alias, width: 200, height: 120, variant: 7)
        let rerun = try run(folder)
        XCTAssertEqual(rerun.status, 0, rerun.stderr)
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT count(*) FROM photos"), ["3"])
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT count(*) FROM aliases"), ["0"], "the name holds other bytes now")
        try assertPicture("\(folder)/out/\(name).jpg", isThatOf: alias)
        XCTAssertEqual(AliasTests.tag("user.album.photo", of: "\(folder)/out/\(name).jpg"), try Tool.sha256(alias))
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT count(*) FROM renditions WHERE kind = 'export'"), ["3"],
                       "one export row per file: the old photo's row for that name went with the file")
        XCTAssertEqual(try toDo(folder), 0)
        XCTAssertEqual(try run(folder, ["verify", "--catalogue", "album"]).status, 0)
    }

    /// Originals moved elsewhere with their copies: `album relocate` rewrites the aliases with the photos' paths, and
    /// the rerun after it does nothing.
    func testRelocateRewritesAliasesWithTheOriginals() throws {
        let folder = try library()
        try TestSupport.write("""
            version: 1
            catalogue: jobs/album
            stages:
              - import: {from: nas/photos}
              - export: {to: "out/{name}.jpg"}
            """ + "\n", to: "elsewhere.yml", in: folder)
        try FileManager.default.createDirectory(atPath: folder + "/nas", withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: folder + "/photos", toPath: folder + "/nas/photos")
        XCTAssertEqual(try run(folder, ["run", "elsewhere.yml"]).status, 0)
        let catalogue = folder + "/jobs/album"
        XCTAssertEqual(try Probe.rows(catalogue, "SELECT count(*) FROM aliases WHERE path LIKE '\(folder)/nas/photos/%'"), ["1"],
                       "stored absolute: the library is not under the catalogue's parent")
        try FileManager.default.moveItem(atPath: folder + "/nas", toPath: folder + "/disk")
        let relocate = try run(folder, ["relocate", "--catalogue", catalogue, "--from", folder + "/nas", "--to", folder + "/disk", "--json"])
        XCTAssertEqual(relocate.status, 0, relocate.stderr)
        let moved = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(relocate.stdout.utf8)) as? [String: Any])
        let kinds = try XCTUnwrap(moved["paths"] as? [[String: Any]]).compactMap { $0["kind"] as? String }
        XCTAssertEqual(kinds.sorted(), ["alias", "original", "original"])
        XCTAssertEqual(try Probe.rows(catalogue, "SELECT count(*) FROM aliases WHERE path LIKE '\(folder)/disk/photos/%'"), ["1"])

        let job = try String(contentsOfFile: folder + "/elsewhere.yml", encoding: .utf8)
        try job.replacingOccurrences(of: "nas/photos", with: "disk/photos").write(toFile: folder + "/elsewhere.yml", atomically: true, encoding: .utf8)
        let rerun = try run(folder, ["run", "elsewhere.yml"])
        XCTAssertEqual(rerun.status, 0, rerun.stderr)
        XCTAssertEqual(try Probe.rows(catalogue, """
            SELECT count(*) FROM steps WHERE status != 'skipped' AND run = (SELECT max(id) FROM runs)
            """), ["0"], "nothing to redo: every name is known where it is now")
        XCTAssertEqual(try run(folder, ["verify", "--catalogue", catalogue]).status, 0)
    }

    func testATemplateWithoutTheNameGivesOneFilePerPhoto() throws {
        let folder = try library(template: "out/{hash8}.jpg")
        let result = try run(folder)
        XCTAssertEqual(result.status, 0, result.stderr)
        let hash = try Tool.sha256("\(folder)/photos/r001.jpg"), other = try Tool.sha256("\(folder)/photos/other.jpg")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder + "/out").sorted(), ["\(hash.prefix(8)).jpg", "\(other.prefix(8)).jpg"].sorted())
        XCTAssertEqual(try toDo(folder), 0)
    }

    func testRmOfAPhotoRemovesItsAliasesExportsToo() throws {
        let folder = try library()
        XCTAssertEqual(try run(folder).status, 0)
        let hash = try Tool.sha256("\(folder)/photos/r001.jpg")
        let id = try XCTUnwrap(Probe.rows(folder + "/album", "SELECT id FROM photos WHERE hash = '\(hash)'").first)
        let rm = try run(folder, ["rm", id, "--catalogue", "album"])
        XCTAssertEqual(rm.status, 0, rm.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder + "/out").sorted(), ["other.jpg"], "both names' exports are deleted")
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT count(*) FROM aliases"), ["0"])
        XCTAssertEqual(try run(folder, ["verify", "--catalogue", "album"]).status, 0)
    }

    /// A photo's own file overwritten with another photo's bytes (issue 29, item 3: `cp r001.jpg other.jpg`): the
    /// name is an alias of r001's photo now, the photo it held is superseded, and r001's photo takes over its export
    /// under that name, on the first run after the copy and every run after; prune forgets the old photo and keeps
    /// the export, and verify is content.
    func testAPhotosFileOverwrittenWithAnotherPhotosBytesHandsItsExportOver() throws {
        let folder = try library()
        XCTAssertEqual(try run(folder).status, 0)
        let oldOther = try XCTUnwrap(Probe.rows(folder + "/album", "SELECT id FROM photos WHERE path LIKE '%other.jpg'").first)
        try FileManager.default.removeItem(atPath: "\(folder)/photos/other.jpg")
        try FileManager.default.copyItem(atPath: "\(folder)/photos/r001.jpg", toPath: "\(folder)/photos/other.jpg")

        let planned = try run(folder, ["plan", "job.yml", "--json"])
        let first = try run(folder, ["run", "job.yml", "--log-format", "json"])
        XCTAssertEqual(first.status, 0, first.stderr)
        // The plan and the run agree: other.jpg's export to do (done), the photo it held superseded.
        let plan = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(planned.stdout.utf8)) as? [String: Any], planned.stdout)
        XCTAssertEqual((plan["states"] as? [String: Int])?["superseded"], 1, planned.stdout)
        let finished = try XCTUnwrap(first.stdout.split(separator: "\n").last { $0.contains(#""run-finished""#) })
        let summary = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(finished.utf8)) as? [String: Any])
        XCTAssertEqual((summary["states"] as? [String: Int])?["superseded"], 1, String(finished))
        XCTAssertEqual(((summary["stages"] as? [String: Any])?["export"] as? [String: Int])?["done"], 1, String(finished))
        try assertPicture("\(folder)/out/other.jpg", isThatOf: "\(folder)/photos/r001.jpg")
        XCTAssertEqual(AliasTests.tag("user.album.photo", of: "\(folder)/out/other.jpg"), try Tool.sha256("\(folder)/photos/r001.jpg"))
        let second = try run(folder)
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertEqual(try toDo(folder), 0)

        let listed = try run(folder, ["ls", "--catalogue", "album", "--state", "superseded", "--json"])
        XCTAssertEqual(listed.status, 0, listed.stderr)
        XCTAssert(listed.stdout.contains(oldOther), "the photo other.jpg held is superseded: \(listed.stdout)")
        let shown = try run(folder, ["show", "--catalogue", "album", String(oldOther.prefix(8))])
        XCTAssert(shown.stdout.contains("superseded"), shown.stdout + shown.stderr)
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT count(*) FROM renditions WHERE kind = 'export' AND photo = '\(oldOther)'"), ["0"],
                       "its export row went with the file")
        let verify = try run(folder, ["verify", "--catalogue", "album", "--json"])
        XCTAssertEqual(verify.status, 0, verify.stdout + verify.stderr)
        XCTAssert(verify.stdout.contains(#""superseded": 1"#), verify.stdout)

        let pruned = try run(folder, ["prune", "--catalogue", "album"])
        XCTAssertEqual(pruned.status, 0, pruned.stderr)
        XCTAssert(pruned.stderr.contains("1 superseded"), pruned.stderr)
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT count(*) FROM photos WHERE id = '\(oldOther)'"), ["0"])
        try assertPicture("\(folder)/out/other.jpg", isThatOf: "\(folder)/photos/r001.jpg")
        XCTAssertEqual(try run(folder, ["verify", "--catalogue", "album"]).status, 0)
        XCTAssertEqual(try toDo(folder), 0)
    }

    /// The old bytes copied back: the photo is current again (its file holds its own bytes), and its export is its
    /// own again.
    func testTheOverwrittenPhotosBytesCopiedBackMakeItCurrentAgain() throws {
        let folder = try library()
        let saved = "\(folder)/saved.jpg"
        try FileManager.default.copyItem(atPath: "\(folder)/photos/other.jpg", toPath: saved)
        XCTAssertEqual(try run(folder).status, 0)
        try FileManager.default.removeItem(atPath: "\(folder)/photos/other.jpg")
        try FileManager.default.copyItem(atPath: "\(folder)/photos/r001.jpg", toPath: "\(folder)/photos/other.jpg")
        XCTAssertEqual(try run(folder).status, 0)
        try FileManager.default.removeItem(atPath: "\(folder)/photos/other.jpg")
        try FileManager.default.copyItem(atPath: saved, toPath: "\(folder)/photos/other.jpg")
        let back = try run(folder)
        XCTAssertEqual(back.status, 0, back.stderr)
        try assertPicture("\(folder)/out/other.jpg", isThatOf: saved)
        let listed = try run(folder, ["ls", "--catalogue", "album", "--state", "superseded", "-q"])
        XCTAssertEqual(listed.stdout, "", "no photo is superseded")
        XCTAssertEqual(try run(folder, ["verify", "--catalogue", "album"]).status, 0)
        XCTAssertEqual(try toDo(folder), 0)
    }
}
