import Foundation
import XCTest

/// RAW+JPEG pairs (issue 32, docs/catalogue.md "Pairs"), through the built binary on files the tests make: a camera
/// RAW and a JPEG with the same name in one folder are one photo with two originals. The RAWs are DNGs written by
/// `RawFixture` (make_dng.py: an RGGB mosaic and a JPEG preview); a second original is only read, hashed and
/// stat-ed, never decoded, while the JPEG renders.
final class PairTests: XCTestCase, DrivesAlbum {
    /// A DNG of `width`×`height` sensor pixels with a JPEG preview of half that (`RawFixture`); `model` changes its
    /// bytes.
    static func dng(at path: String, width: Int = 640, height: Int = 480, model: String = "Canon EOS 6D") throws {
        try RawFixture.dng(at: path, size: "\(width)x\(height)", preview: "\(width / 2)x\(height / 2)", ["--model", model])
    }

    /// `photos/IMG_1.JPG` + `photos/IMG_1.DNG` (a pair), `photos/lone.jpg` and `photos/solo.dng` (alone), and a job
    /// that imports them (the default `include`) with `pair` (none: the default) and makes thumbnails.
    func library(pair: String? = nil) throws -> String {
        let folder = try TestSupport.temporaryFolder(self)
        try Fixture.jpeg(at: "\(folder)/photos/IMG_1.JPG")
        try PairTests.dng(at: "\(folder)/photos/IMG_1.DNG")
        try Fixture.jpeg(at: "\(folder)/photos/lone.jpg", variant: 1)
        try PairTests.dng(at: "\(folder)/photos/solo.dng", width: 320, height: 240)
        try writeJob(in: folder, pair: pair)
        return folder
    }

    func writeJob(in folder: String, pair: String?, export: Bool = false) throws {
        try TestSupport.write("""
            version: 1
            name: pairs
            stages:
              - import: {from: photos\(pair.map { ", pair: \($0)" } ?? "")}
              - thumbnail: {size: 32x32}
            """ + (export ? "\n  - export: {from: thumbnail, to: \"out/{name}.jpg\"}" : ""), to: "job.yml", in: folder)
    }

    /// The import steps of the newest run, per status.
    func lastImport(_ folder: String) throws -> [String] {
        try Probe.rows(folder + "/album", "SELECT status || ' ' || coalesce(error, '') FROM steps WHERE stage = 'import' AND run = (SELECT max(id) FROM runs) ORDER BY id")
    }

    /// What `album plan --json` counts to do at import.
    func importToDo(_ folder: String) throws -> Int? {
        let plan = try album(["plan", "job.yml", "--json"], in: folder)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(plan.stdout.utf8)) as? [String: Any])
        return (object["stages"] as? [[String: Any]])?.first { $0["stage"] as? String == "import" }?["to_do"] as? Int
    }

    func testARawAndAJPEGWithTheSameNameAreOnePhotoThatListsBothAndNeitherIsWritten() throws {
        let folder = try library()
        let before = try ["IMG_1.JPG", "IMG_1.DNG", "lone.jpg", "solo.dng"].map { try TestSupport.hash("\(folder)/photos/\($0)") }
        let run = try album(["run", "job.yml"], in: folder)
        XCTAssertTrue(run.stderr.contains("import         3"), run.stderr)
        let photos = try photos(in: folder)
        XCTAssertEqual(Set(photos.keys), ["IMG_1.JPG", "lone.jpg", "solo.dng"], "the pair is one photo; a lone RAW and a lone JPEG are photos as before")
        XCTAssertEqual(photos["IMG_1.JPG"]?["format"] as? String, "jpeg", "the JPEG renders by default")
        XCTAssertEqual(seconds(photos["IMG_1.JPG"]),
                       ["IMG_1.DNG dng \(try TestSupport.hash("\(folder)/photos/IMG_1.DNG")) \(try size("\(folder)/photos/IMG_1.DNG"))"])
        XCTAssertEqual(seconds(photos["lone.jpg"]), [])
        XCTAssertEqual(seconds(photos["solo.dng"]), [])

        let listed = try album(["ls"], in: folder)
        XCTAssertTrue(listed.stdout.contains("\(folder)/photos/IMG_1.JPG + IMG_1.DNG"), listed.stdout)
        let shown = try album(["show", "photos/IMG_1.JPG"], in: folder)
        XCTAssertTrue(shown.stdout.contains("second   \(folder)/photos/IMG_1.DNG (dng, "), shown.stdout)
        let shownJSON = try album(["show", "--json", "photos/IMG_1.JPG"], in: folder)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(shownJSON.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(seconds(object["photo"] as? [String: Any]), seconds(photos["IMG_1.JPG"]))
        // The RAW's path names the photo too.
        let byRaw = try album(["show", "photos/IMG_1.DNG"], in: folder)
        XCTAssertTrue(byRaw.stdout.contains("path     \(folder)/photos/IMG_1.JPG"), byRaw.stdout)

        try album(["verify"], in: folder)
        // Unchanged by stat: neither file is read again, nothing is recorded.
        try album(["run", "job.yml"], in: folder)
        XCTAssertEqual(try lastImport(folder), [])
        XCTAssertEqual(try ["IMG_1.JPG", "IMG_1.DNG", "lone.jpg", "solo.dng"].map { try TestSupport.hash("\(folder)/photos/\($0)") }, before,
                       "originals are never written")
    }

    func testPairRawRendersTheRawAndSeparateKeepsTwoPhotos() throws {
        let folder = try library(pair: "raw")
        try album(["run", "job.yml"], in: folder)
        var photos = try photos(in: folder)
        XCTAssertEqual(Set(photos.keys), ["IMG_1.DNG", "lone.jpg", "solo.dng"])
        XCTAssertEqual(seconds(photos["IMG_1.DNG"]).map { $0.components(separatedBy: " ").prefix(2).joined(separator: " ") }, ["IMG_1.JPG jpeg"])
        // The photo is the RAW's: its format and its sensor's 640×480 (the JPEG is 320×200), and its thumbnail is made.
        XCTAssertEqual(photos["IMG_1.DNG"]?["format"] as? String, "dng")
        XCTAssertEqual(photos["IMG_1.DNG"]?["width"] as? Int, 640)
        XCTAssertEqual(photos["IMG_1.DNG"]?["height"] as? Int, 480)
        let thumbnail = try Probe.newestThumbnail(folder + "/album", original: "\(folder)/photos/IMG_1.DNG")
        XCTAssertEqual(try Fixture.quadrants(of: thumbnail).width, 32, "the longer side fits the 32x32 box")

        let separate = try library(pair: "separate")
        try album(["run", "job.yml"], in: separate)
        photos = try self.photos(in: separate)
        XCTAssertEqual(Set(photos.keys), ["IMG_1.JPG", "IMG_1.DNG", "lone.jpg", "solo.dng"], "separate: two photos, as before pairs")
        XCTAssertEqual(photos.values.flatMap { seconds($0) }, [])
    }

    func testEditingEitherFileMakesANewVersion() throws {
        let folder = try library()
        try album(["run", "job.yml"], in: folder)
        let first = try XCTUnwrap(try photos(in: folder)["IMG_1.JPG"])

        // The RAW edited (another picture, as a raw editor writing in place would): the second original's new version.
        try PairTests.dng(at: "\(folder)/photos/IMG_1.DNG", model: "Canon EOS 5D")
        XCTAssertEqual(try importToDo(folder), 1, "the plan counts the RAW's new version, as the run records it")
        XCTAssertEqual(try album(["ls", "--state", "changed", "-q"], in: folder).stdout.split(separator: "\n"), [Substring(first["id"] as! String)],
                       "an edited RAW makes its photo changed, as an edited original does")
        XCTAssertTrue(try album(["show", "photos/IMG_1.JPG"], in: folder).stdout.contains("state    changed"))
        try album(["run", "job.yml"], in: folder)
        XCTAssertEqual(try importToDo(folder), 0)
        XCTAssertEqual(try album(["ls", "--state", "changed", "-q"], in: folder).stdout, "")
        XCTAssertEqual(try lastImport(folder), ["done its second original \(folder)/photos/IMG_1.DNG changed: recorded as its new version"])
        var photos = try photos(in: folder)
        XCTAssertEqual(photos["IMG_1.JPG"]?["id"] as? String, first["id"] as? String, "the rendered original did not change")
        XCTAssertEqual(seconds(photos["IMG_1.JPG"]),
                       ["IMG_1.DNG dng \(try TestSupport.hash("\(folder)/photos/IMG_1.DNG")) \(try size("\(folder)/photos/IMG_1.DNG"))"])
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT count(*) FROM steps WHERE stage = 'import' AND status = 'done' AND photo = '\(first["id"]!)'"), ["2"],
                       "the history holds both versions of the RAW (input and output hash)")
        try album(["verify"], in: folder)

        // The JPEG edited: a new photo that replaces the pair's, with the RAW as its second original.
        try Fixture.jpeg(at: "\(folder)/photos/IMG_1.JPG", variant: 9)
        try album(["run", "job.yml"], in: folder)
        photos = try self.photos(in: folder)
        let superseded = try album(["ls", "--state", "superseded", "-q"], in: folder)
        XCTAssertEqual(superseded.stdout.split(separator: "\n"), [Substring(first["id"] as! String)])
        let current = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try album(["show", "--json", "photos/IMG_1.JPG"], in: folder).stdout.utf8)) as? [String: Any])
        let newest = try XCTUnwrap(current["photo"] as? [String: Any])
        XCTAssertEqual(newest["replaces"] as? String, first["id"] as? String)
        XCTAssertEqual(seconds(newest).count, 1, "the new version keeps the RAW")
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT count(*) FROM second_originals"), ["1"], "the RAW is the new version's only")
        try album(["verify"], in: folder)
    }

    func testAChangeOfEitherFileByItsStatIsNoticedAndAnUnchangedStatIsNotRead() throws {
        let folder = try library()
        try album(["run", "job.yml"], in: folder)
        let raw = "\(folder)/photos/IMG_1.DNG"
        let recorded = try Probe.rows(folder + "/album", "SELECT hash FROM second_originals")
        // Bytes changed under the same size, inode and mtime: the fast path does not read the RAW…
        XCTAssertEqual(try Tool.run(["cp", "-p", raw, folder + "/times"]).status, 0)
        let handle = try XCTUnwrap(FileHandle(forUpdatingAtPath: raw))
        try handle.seek(toOffset: 400)
        try handle.write(contentsOf: Data([0x5A, 0xA5, 0x5A, 0xA5]))
        try handle.close()
        XCTAssertEqual(try Tool.run(["touch", "-r", folder + "/times", raw]).status, 0)
        try album(["run", "job.yml"], in: folder)
        XCTAssertEqual(try lastImport(folder), [])
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT hash FROM second_originals"), recorded, "not read")
        // …and verify, which reads every original, finds it.
        let verify = try album(["verify"], in: folder, status: 1)
        XCTAssertTrue(verify.stdout.contains("\(raw): the second original's SHA-256 differs from the one recorded, though its size, inode and modification time are as recorded: damaged on disk"),
                      verify.stdout + verify.stderr)
        // Touched (a new mtime): read, and recorded as its new version.
        XCTAssertEqual(try Tool.run(["touch", raw]).status, 0)
        try album(["run", "job.yml"], in: folder)
        XCTAssertEqual(try lastImport(folder), ["done its second original \(raw) changed: recorded as its new version"])
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT hash FROM second_originals"), [try TestSupport.hash(raw)])
        try album(["verify"], in: folder)
    }

    func testVerifyReportsAMissingOrChangedSecondOriginalAndPruneForgetsAGoneOne() throws {
        let folder = try library()
        try album(["run", "job.yml"], in: folder)
        let raw = "\(folder)/photos/IMG_1.DNG"
        try PairTests.dng(at: raw, width: 600)
        var verify = try album(["verify", "--json"], in: folder)
        var report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(verify.stdout.utf8)) as? [String: Any])
        XCTAssertEqual((report["states"] as? [String: Any])?["changed"] as? Int, 1, "an edited RAW is changed, as an edited original is")

        try FileManager.default.removeItem(atPath: raw)
        verify = try album(["verify", "--json"], in: folder, status: 1)
        report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(verify.stdout.utf8)) as? [String: Any])
        let problems = try XCTUnwrap(report["problems"] as? [[String: Any]])
        XCTAssertEqual(problems.map { $0["path"] as? String }, [raw])
        XCTAssertEqual(problems.first?["kind"] as? String, "original")
        XCTAssertTrue((problems.first?["message"] as? String ?? "").hasPrefix("the second original is missing"), "\(problems)")

        // The run goes on with the JPEG alone; prune forgets the gone RAW and keeps the photo.
        try album(["run", "job.yml"], in: folder)
        let prune = try album(["prune", "--json"], in: folder)
        let pruned = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(prune.stdout.utf8)) as? [String: Any])
        XCTAssertEqual((pruned["second_originals"] as? [[String: Any]])?.map { $0["path"] as? String }, [raw])
        XCTAssertEqual(((pruned["photos"] as? [String: Any])?["forgotten"] as? [Any])?.count, 0)
        let photos = try photos(in: folder)
        XCTAssertEqual(seconds(photos["IMG_1.JPG"]), [])
        XCTAssertEqual(photos["IMG_1.JPG"]?["state"] as? String, "ok")
        try album(["verify"], in: folder)
    }

    func testRelocateMovesBothFilesAndRmForgetsBothButDeletesNeither() throws {
        let folder = try library()
        try album(["run", "job.yml"], in: folder)
        try FileManager.default.moveItem(atPath: "\(folder)/photos", toPath: "\(folder)/moved")
        try album(["verify"], in: folder, status: 1)
        let relocate = try album(["relocate", "--from", "\(folder)/photos", "--to", "\(folder)/moved"], in: folder)
        XCTAssertTrue(relocate.stdout.contains("second original: \(folder)/photos/IMG_1.DNG -> \(folder)/moved/IMG_1.DNG"), relocate.stdout)
        try album(["verify"], in: folder)
        let photos = try photos(in: folder)
        XCTAssertEqual(photos["IMG_1.JPG"]?["path"] as? String, "\(folder)/moved/IMG_1.JPG")
        XCTAssertEqual(((photos["IMG_1.JPG"]?["second_originals"] as? [[String: Any]])?.first?["path"] as? String), "\(folder)/moved/IMG_1.DNG")

        let id = try XCTUnwrap(photos["IMG_1.JPG"]?["id"] as? String)
        try album(["rm", id], in: folder)
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT count(*) FROM second_originals"), ["0"])
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT count(*) FROM photos WHERE id = '\(id)'"), ["0"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: "\(folder)/moved/IMG_1.JPG"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: "\(folder)/moved/IMG_1.DNG"), "rm never deletes an original")
        let gc = try album(["gc"], in: folder)
        XCTAssertTrue(FileManager.default.fileExists(atPath: "\(folder)/moved/IMG_1.DNG"), gc.stdout)
        try album(["verify"], in: folder)
    }

    func testChangingPairRegroupsTheFiles() throws {
        let folder = try library(pair: "separate")
        try album(["run", "job.yml"], in: folder)
        XCTAssertEqual(Set(try photos(in: folder).keys), ["IMG_1.JPG", "IMG_1.DNG", "lone.jpg", "solo.dng"])

        // separate → jpeg: the RAW's own photo is the pair's second original now, and superseded.
        try writeJob(in: folder, pair: "jpeg")
        try album(["run", "job.yml"], in: folder)
        var photos = try photos(in: folder)
        XCTAssertEqual(photos["IMG_1.DNG"]?["state"] as? String, "superseded")
        XCTAssertEqual(seconds(photos["IMG_1.JPG"]).count, 1)
        try album(["verify"], in: folder)

        // jpeg → raw: the RAW renders; the JPEG's photo is superseded.
        try writeJob(in: folder, pair: "raw")
        try album(["run", "job.yml"], in: folder)
        photos = try self.photos(in: folder)
        XCTAssertEqual(photos["IMG_1.JPG"]?["state"] as? String, "superseded")
        XCTAssertEqual(photos["IMG_1.DNG"]?["state"] as? String, "ok")
        XCTAssertEqual(seconds(photos["IMG_1.DNG"]).map { $0.components(separatedBy: " ")[0] }, ["IMG_1.JPG"])
        XCTAssertEqual(seconds(photos["IMG_1.JPG"]), [], "a path is one photo's second original at a time")
        try album(["verify"], in: folder)

        // And back: the JPEG's photo is current again, the RAW's superseded.
        try writeJob(in: folder, pair: "jpeg")
        try album(["run", "job.yml"], in: folder)
        photos = try self.photos(in: folder)
        XCTAssertEqual(photos["IMG_1.JPG"]?["state"] as? String, "ok")
        XCTAssertEqual(photos["IMG_1.DNG"]?["state"] as? String, "superseded")
        XCTAssertEqual(try album(["ls", "--state", "ok", "-q"], in: folder).stdout.split(separator: "\n").count, 3)
        try album(["verify"], in: folder)
        // Prune forgets the superseded grouping; the pair stays whole.
        try album(["prune"], in: folder)
        photos = try self.photos(in: folder)
        XCTAssertEqual(Set(photos.keys), ["IMG_1.JPG", "lone.jpg", "solo.dng"])
        XCTAssertEqual(seconds(photos["IMG_1.JPG"]).count, 1)
        try album(["verify"], in: folder)
        try album(["run", "job.yml"], in: folder)
        XCTAssertEqual(try lastImport(folder), [])
    }

    func testARegroupedPairsNewPhotoTakesItsExportOver() throws {
        let folder = try library()
        try writeJob(in: folder, pair: "jpeg", export: true)
        try album(["run", "job.yml"], in: folder)
        let exportOwner = "SELECT p.path FROM renditions r JOIN photos p ON p.id = r.photo WHERE r.kind = 'export' AND r.path LIKE '%/IMG_1.jpg'"
        XCTAssertEqual(try Probe.rows(folder + "/album", exportOwner), ["../photos/IMG_1.JPG"])
        for (pair, renders) in [("raw", "../photos/IMG_1.DNG"), ("jpeg", "../photos/IMG_1.JPG")] {
            try writeJob(in: folder, pair: pair, export: true)
            try album(["run", "job.yml"], in: folder)
            XCTAssertEqual(try Probe.rows(folder + "/album", exportOwner), [renders], "pair: \(pair)")
            try album(["verify"], in: folder)
        }
        try album(["prune"], in: folder)
        try album(["run", "job.yml"], in: folder)
        XCTAssertEqual(try lastImport(folder), [])
        XCTAssertTrue(FileManager.default.fileExists(atPath: "\(folder)/out/IMG_1.jpg"))
        try album(["verify"], in: folder)
    }

    func testPruneKeepsTheSecondOriginalsOfAPhotoWhoseFolderIsGone() throws {
        let folder = try library()
        try album(["run", "job.yml"], in: folder)
        try FileManager.default.moveItem(atPath: "\(folder)/photos", toPath: "\(folder)/away")
        let prune = try album(["prune", "--json"], in: folder)
        let pruned = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(prune.stdout.utf8)) as? [String: Any])
        XCTAssertEqual((pruned["second_originals"] as? [Any])?.count, 0, "an unmounted share's RAWs are not forgotten: \(prune.stdout)")
        XCTAssertEqual(((pruned["photos"] as? [String: Any])?["unreachable"] as? [Any])?.count, 1)
        try FileManager.default.moveItem(atPath: "\(folder)/away", toPath: "\(folder)/photos")
        XCTAssertEqual(seconds(try photos(in: folder)["IMG_1.JPG"]).count, 1)
        try album(["verify"], in: folder)
    }

    func testAHEICAndARawPairInAnyCaseButNotAcrossFolders() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try FileManager.default.createDirectory(atPath: "\(folder)/photos/other", withIntermediateDirectories: true)
        _ = try FormatFixture.write(try FormatFixture.quadrants().encoded(suffix: ".heic[compression=hevc,Q=80]"), to: "photos/IMG_2.HEIC", in: folder)
        try PairTests.dng(at: "\(folder)/photos/img_2.dng")
        try PairTests.dng(at: "\(folder)/photos/other/IMG_2.DNG", model: "Canon EOS 5D")
        try writeJob(in: folder, pair: nil)
        try album(["run", "job.yml"], in: folder)
        let listed = try album(["ls", "--json"], in: folder)
        let array = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(Set(array.map { "\($0["format"]!) \((($0["path"] as! String).dropFirst(folder.count + 1)))" }),
                       ["heif photos/IMG_2.HEIC", "dng photos/other/IMG_2.DNG"], "a RAW in another folder is a photo of its own")
        let heic = try XCTUnwrap(array.first { $0["format"] as? String == "heif" })
        XCTAssertEqual(seconds(heic).map { $0.components(separatedBy: " ").prefix(2).joined(separator: " ") }, ["img_2.dng dng"])
    }

    func testALinkedRawThatImportDoesNotFollowLeavesTheJPEGAlone() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try Fixture.jpeg(at: "\(folder)/photos/IMG_3.JPG")
        try PairTests.dng(at: "\(folder)/elsewhere/IMG_3.DNG")
        try FileManager.default.createSymbolicLink(atPath: "\(folder)/photos/IMG_3.DNG", withDestinationPath: "\(folder)/elsewhere/IMG_3.DNG")
        try writeJob(in: folder, pair: nil)
        try album(["run", "job.yml"], in: folder)
        XCTAssertEqual(seconds(try photos(in: folder)["IMG_3.JPG"]), [], "a link not followed is not read as a second original")
        try album(["run", "job.yml"], in: folder)
        try album(["verify"], in: folder)
    }

    /// A camera writes the RAW after the JPEG: `album watch` imports the JPEG in one batch, then pairs the RAW that
    /// arrives in a later batch with it (the batch holds only the RAW, the scan's file is the JPEG).
    func testAWatchedFolderPairsARawThatArrivesAfterItsJPEG() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try Fixture.jpeg(at: "\(folder)/photos/IMG_1.JPG")
        try PairTests.dng(at: "\(folder)/staging/IMG_1.DNG")
        try writeJob(in: folder, pair: nil)
        let watch = try WatchTests.Watch(in: folder)
        func waitUntil(_ what: String, _ condition: () throws -> Bool) rethrows {
            let end = Date().addingTimeInterval(WatchTests.deadline)
            while Date() < end {
                if try condition() { return }
                Thread.sleep(forTimeInterval: 0.2)
            }
            XCTFail("gave up waiting for \(what): \(watch.stderr)")
        }
        let count = { (table: String) in (try? Probe.rows(folder + "/album", "SELECT count(*) FROM \(table)").first) ?? nil }
        try waitUntil("the JPEG imported") { FileManager.default.fileExists(atPath: folder + "/album/catalogue.db") && count("photos") == "1" }
        try FileManager.default.moveItem(atPath: "\(folder)/staging/IMG_1.DNG", toPath: "\(folder)/photos/IMG_1.DNG")
        try waitUntil("the RAW paired") { count("second_originals") == "1" }
        XCTAssertEqual(watch.interrupt(), .exited(130), watch.stderr)
        XCTAssertEqual(count("photos"), "1", "the RAW is the photo's second original, not a photo")
        XCTAssertEqual(seconds(try photos(in: folder)["IMG_1.JPG"]).map { $0.components(separatedBy: " ")[0] }, ["IMG_1.DNG"])
        try album(["verify"], in: folder)
    }

    /// `--distribute local`: each pair goes whole to one chunk, and the merge carries its second original over, as a
    /// run on one machine records it.
    func testADistributedRunRecordsPairsAsOneMachineDoes() throws {
        let folder = try library()
        for index in 2...4 {
            try Fixture.jpeg(at: "\(folder)/photos/IMG_\(index).JPG", variant: 10 + index)
            try PairTests.dng(at: "\(folder)/photos/IMG_\(index).DNG", model: "Camera \(index)")
        }
        try album(["run", "job.yml", "--distribute", "local", "--chunks", "3", "--workers", "1"], in: folder)
        let photos = try photos(in: folder)
        XCTAssertEqual(Set(photos.keys), ["IMG_1.JPG", "IMG_2.JPG", "IMG_3.JPG", "IMG_4.JPG", "lone.jpg", "solo.dng"])
        for index in 1...4 {
            XCTAssertEqual(seconds(photos["IMG_\(index).JPG"]),
                           ["IMG_\(index).DNG dng \(try TestSupport.hash("\(folder)/photos/IMG_\(index).DNG")) \(try size("\(folder)/photos/IMG_\(index).DNG"))"])
        }
        try album(["verify"], in: folder)
        try album(["run", "job.yml"], in: folder)
        XCTAssertEqual(try lastImport(folder), [], "a run on one machine finds every pair as the chunks recorded it")
    }
}
