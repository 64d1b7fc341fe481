import XCTest
import Glibc
@testable import Catalogue

/// `album verify --quick` (stat cost, no file read) beside the deep check, and the deep check's limits (`--sample`,
/// `--seed`, `--since`, `--resume`), through the built binary on a catalogue made by a real run.
final class VerifyDepthTests: XCTestCase {
    /// Imports five small JPEGs with thumbnails; returns the photos' ids by file name.
    func makeCatalogue(in folder: String) throws -> [String: String] {
        for (n, name) in ["a", "b", "c", "d", "e"].enumerated() {
            try Fixture.jpeg(at: "\(folder)/photos/\(name).jpg", width: 40 + 8 * n, height: 30, variant: n)
        }
        try TestSupport.write("""
            version: 1
            name: album
            stages:
              - import: {from: photos}
              - thumbnail: {size: 16x16}
            """, to: "job.yml", in: folder)
        let run = try TestSupport.album(["run", "job.yml"], in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        let catalogue = try Catalogue(folder: folder + "/album", create: false)
        defer { catalogue.close() }
        return Dictionary(uniqueKeysWithValues: try catalogue.allPhotos().map { (($0.path as NSString).lastPathComponent, $0.id) })
    }

    func thumbnail(of id: String, in folder: String) throws -> Rendition {
        let catalogue = try Catalogue(folder: folder + "/album", create: false)
        defer { catalogue.close() }
        return try XCTUnwrap(try catalogue.renditions(photo: id).first { $0.kind == .thumbnail })
    }

    /// Flips one byte in place (same inode, same size) and puts the modification time back to the nanosecond.
    func rewriteKeepingStat(_ path: String) throws {
        var before = stat()
        XCTAssertEqual(stat(path, &before), 0)
        let handle = try XCTUnwrap(FileHandle(forUpdatingAtPath: path))
        try handle.seek(toOffset: 20)
        let byte = try XCTUnwrap(handle.readData(ofLength: 1).first)
        try handle.seek(toOffset: 20)
        handle.write(Data([byte ^ 0xFF]))
        try handle.close()
        var times = [before.st_atim, before.st_mtim]
        XCTAssertEqual(utimensat(AT_FDCWD, path, &times, 0), 0)
        var after = stat()
        XCTAssertEqual(stat(path, &after), 0)
        XCTAssertEqual([after.st_size, after.st_mtim.tv_sec, after.st_mtim.tv_nsec, Int(after.st_ino)],
                       [before.st_size, before.st_mtim.tv_sec, before.st_mtim.tv_nsec, Int(before.st_ino)])
    }

    func json(_ text: String) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], text)
    }

    func testQuickFindsSizeAndStatChangesAndMissingOriginalsWithoutReadingAFile() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let ids = try makeCatalogue(in: folder)
        let sound = try TestSupport.album(["verify", "--quick"], in: folder)
        XCTAssertEqual(sound.status, 0, sound.stdout + sound.stderr)
        XCTAssertEqual(sound.stdout, "")
        XCTAssert(sound.stderr.contains("catalogue \(folder)/album is sound"), sound.stderr)

        let a = try XCTUnwrap(ids["a.jpg"]), b = try XCTUnwrap(ids["b.jpg"]), c = try XCTUnwrap(ids["c.jpg"])
        let d = try XCTUnwrap(ids["d.jpg"]), e = try XCTUnwrap(ids["e.jpg"])
        let thumbA = try thumbnail(of: a, in: folder), thumbC = try thumbnail(of: c, in: folder)
        try Data("short".utf8).write(to: URL(fileURLWithPath: thumbA.path))          // its size changed
        try FileManager.default.removeItem(atPath: "\(folder)/photos/b.jpg")          // a missing original
        try rewriteKeepingStat(thumbC.path)                                            // bytes changed, stat not
        try rewriteKeepingStat("\(folder)/photos/d.jpg")                               // bytes changed, stat not
        // Touched: the same bytes, a later modification time.
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: "\(folder)/photos/e.jpg")

        let quick = try TestSupport.album(["verify", "--quick"], in: folder)
        XCTAssertEqual(quick.status, 1, quick.stdout + quick.stderr)
        XCTAssertEqual(Set(quick.stdout.split(separator: "\n").map(String.init)), [
            "\(thumbA.path): the thumbnail rendition has 5 bytes, not the \(thumbA.bytes) recorded: it changed since it was recorded, and the next run writes it again (photo \(a.prefix(8)))",
            "\(folder)/photos/b.jpg: the original is missing (photo \(b.prefix(8)))",
            "\(folder)/photos/e.jpg: changed since it was recorded: its modification time or inode is not the recorded one (the same size); the next run imports an edit, and `album verify --deep` re-hashes it to tell a touch from an edit or damage (photo \(e.prefix(8)))",
            "states: 1 changed",
        ], "a stat finds neither c's thumbnail nor d's original, whose bytes changed under the recorded stat")
        XCTAssert(quick.stderr.contains("2 problems in catalogue \(folder)/album"), quick.stderr)

        let quickJSON = try json(try TestSupport.album(["verify", "--quick", "--json"], in: folder).stdout)
        XCTAssertEqual(quickJSON["depth"] as? String, "quick")
        XCTAssertEqual((quickJSON["problems"] as? [[String: Any]])?.compactMap { $0["photo"] as? String }.sorted(), [a, b].sorted())
        XCTAssertEqual((quickJSON["changed"] as? [[String: Any]])?.compactMap { $0["path"] as? String }, ["\(folder)/photos/e.jpg"])
        XCTAssertEqual((quickJSON["states"] as? [String: Any])?["changed"] as? Int, 1)

        // The deep check reads every file: it finds the two changes the stat missed, and e's touch is no change.
        let deep = try TestSupport.album(["verify"], in: folder)
        XCTAssertEqual(deep.status, 1, deep.stdout + deep.stderr)
        XCTAssertEqual(Set(deep.stdout.split(separator: "\n").map(String.init)), [
            "\(thumbA.path): the thumbnail rendition has 5 bytes, not the \(thumbA.bytes) recorded (photo \(a.prefix(8)))",
            "\(thumbC.path): the thumbnail rendition's SHA-256 differs from the one recorded (photo \(c.prefix(8)))",
            "\(folder)/photos/b.jpg: the original is missing (photo \(b.prefix(8)))",
            "\(folder)/photos/d.jpg: the original's SHA-256 differs from the one recorded, though its size, inode and modification time are as recorded: damaged on disk (photo \(d.prefix(8)))",
        ])
        XCTAssertEqual(try TestSupport.album(["verify", "--deep"], in: folder).stdout, deep.stdout)
        XCTAssertEqual(try TestSupport.album(["verify", "--quick", "--sample", "2"], in: folder).status, 2, "limits are the deep check's")
        XCTAssertEqual(try TestSupport.album(["verify", "--quick", "--deep"], in: folder).status, 2)
    }

    func testSampleSinceAndResumeLimitAndContinueTheDeepCheck() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let ids = try makeCatalogue(in: folder)
        // Every thumbnail damaged: each photo a check looks at gives exactly one problem, naming it.
        for id in ids.values { try Data("x".utf8).write(to: URL(fileURLWithPath: try thumbnail(of: id, in: folder).path)) }
        let progress = folder + "/album/" + "verify.progress"
        func check(_ arguments: [String]) throws -> (status: Int32, photos: [String], checked: [String: Any], stderr: String) {
            let result = try TestSupport.album(["verify", "--json"] + arguments, in: folder)
            let object = try json(result.stdout)
            let photos = try XCTUnwrap(object["problems"] as? [[String: Any]]).compactMap { $0["photo"] as? String }
            return (result.status, photos, try XCTUnwrap(object["checked"] as? [String: Any]), result.stderr)
        }

        // The order of seed 7 is SHA-256("7:ID"): the sample is its first two, the same every time.
        let keys = try Dictionary(uniqueKeysWithValues: ids.values.map { ($0, try sha256("7:\($0)", in: folder)) })
        let order = ids.values.sorted { keys[$0]! < keys[$1]! }
        let first = try check(["--sample", "2", "--seed", "7"])
        XCTAssertEqual(first.status, 1)
        XCTAssertEqual(Set(first.photos), Set(order.prefix(2)))
        XCTAssertEqual(first.checked["photos"] as? Int, 2)
        XCTAssertEqual(first.checked["finished"] as? Bool, false)
        XCTAssert(first.stderr.contains("deep check of 2 photos (seed 7): album verify --resume --sample 2 continues it"), first.stderr)
        XCTAssertEqual(Set(try check(["--sample", "2", "--seed", "7"]).photos), Set(first.photos), "a seed repeats its sample")
        XCTAssert(FileManager.default.fileExists(atPath: progress))

        // --resume continues the recorded walk: the next two, then the rest, and the finished walk clears its file.
        let second = try check(["--resume", "--sample", "2"])
        XCTAssertEqual(Set(second.photos), Set(order.dropFirst(2).prefix(2)))
        XCTAssertEqual(second.checked["seed"] as? String, "7")
        let last = try check(["--resume"])
        XCTAssertEqual(last.photos, [order[4]])
        XCTAssertEqual(last.checked["finished"] as? Bool, true)
        XCTAssert(last.stderr.contains("the walk is finished"), last.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: progress))
        XCTAssertEqual(Set(first.photos + second.photos + last.photos).count, 5, "each photo once, in three parts")

        // Without a seed, --sample draws one and prints it, so the sample can be repeated.
        let drawn = try check(["--sample", "3"])
        let seed = try XCTUnwrap(drawn.checked["seed"] as? String)
        XCTAssert(drawn.stderr.contains("(seed \(seed))"), drawn.stderr)
        XCTAssertEqual(Set(try check(["--sample", "3", "--seed", seed]).photos), Set(drawn.photos))
        XCTAssertEqual(drawn.photos.count, 3)
        // A whole deep check that ends clears what a limited one left.
        XCTAssert(FileManager.default.fileExists(atPath: progress))
        let whole = try check([])
        XCTAssertEqual(Set(whole.photos), Set(ids.values))
        XCTAssertFalse(FileManager.default.fileExists(atPath: progress))

        // --since: only photos added (or rendered) on or after the day; none after a future one.
        let future = try check(["--since", "2999-01-01"])
        XCTAssertEqual(future.status, 0, "no photo checked, no problem")
        XCTAssertEqual(future.checked["photos"] as? Int, 0)
        XCTAssertEqual(Set(try check(["--since", "2000"]).photos), Set(ids.values))
        XCTAssertEqual(try TestSupport.album(["verify", "--since", "yesterday"], in: folder).status, 2)
        XCTAssertEqual(try TestSupport.album(["verify", "--resume", "--seed", "3"], in: folder).status, 2)
    }

    func sha256(_ text: String, in folder: String) throws -> String {
        try TestSupport.hash(try TestSupport.write(text, to: "key", in: folder))
    }
}
