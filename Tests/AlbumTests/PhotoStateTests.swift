import Foundation
import System
import Vips
import XCTest
@testable import Core
@testable import Media
@testable import Stages
@testable import Report

/// A photo's state (docs/catalogue.md, "A photo's life: states"), through the built binary on generated photos: a
/// damaged original is recorded, shown and not retried; edited and deleted originals leave a rerun at exit 0 and
/// verify naming only what is a problem; `ls --state` selects. The damage itself comes from a real decoder on a
/// JPEG cut in half (its header intact), never from a flag set by hand.
final class PhotoStateTests: XCTestCase {
    let job = """
        version: 1
        catalogue: album
        stages:
          - import: {from: photos}
          - thumbnail: {size: 64x64}
          - export: {from: image, to: "out/{name}.jpg"}

        """

    /// Two good photos and `bad.jpg`, a generated JPEG cut in half: its header is whole, its pixels end early.
    func library(in folder: String) throws {
        try Fixture.jpeg(at: folder + "/photos/good.jpg", variant: 1)
        try Fixture.jpeg(at: folder + "/photos/other.jpg", variant: 2)
        let whole = try Data(contentsOf: URL(fileURLWithPath: try Fixture.jpeg(at: folder + "/bad-source.jpg", variant: 3)))
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: folder + "/photos/bad.jpg"))
        try TestSupport.write(job, to: "job.yml", in: folder)
    }

    /// `album ls --json` (or with more arguments), by file name: the photo's JSON objects, newest first.
    func listed(_ folder: String, _ more: [String] = []) throws -> [String: [[String: Any]]] {
        let result = try TestSupport.album(["ls", "--json"] + more, in: folder)
        XCTAssertEqual(result.status, 0, result.stderr)
        let photos = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        return Dictionary(grouping: photos) { (($0["path"] as? String ?? "") as NSString).lastPathComponent }
    }

    /// The JSON events of a run with `--log-format json`.
    func events(_ result: (status: Int32, stdout: String, stderr: String)) throws -> [[String: Any]] {
        try result.stdout.split(separator: "\n").map { try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
    }

    /// The steps of the photo `id` recorded with `status` over all runs.
    func steps(_ folder: String, photo id: String, status: String) throws -> Int {
        Int(try Probe.rows(folder + "/album", "SELECT count(*) FROM steps WHERE photo = '\(id)' AND status = '\(status)'").first ?? "") ?? -1
    }

    func testADamagedPhotoIsRecordedShownEverywhereAndNotRetried() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try library(in: folder)

        // The run that meets the damage fails the photo (exit 1), and its failed step says the state.
        let first = try TestSupport.album(["run", "job.yml", "--log-format", "json"], in: folder)
        XCTAssertEqual(first.status, 1, first.stderr)
        let failed = try events(first).filter { $0["event"] as? String == "step" && $0["status"] as? String == "failed" }
        XCTAssertEqual(failed.count, 1, "\(failed)")
        XCTAssertEqual(failed.first?["stage"] as? String, "thumbnail")
        XCTAssertEqual(failed.first?["state"] as? String, "damaged", "\(failed)")
        XCTAssert((failed.first?["path"] as? String)?.hasSuffix("/bad.jpg") == true)
        let good = try events(first).filter { $0["event"] as? String == "step" && $0["status"] as? String == "done" }
        XCTAssertFalse(good.contains { $0["state"] != nil }, "only a damaged photo's step carries a state")

        // ls --json: the state and, for the damaged photo alone, the decoder's reason.
        var photos = try listed(folder)
        let bad = try XCTUnwrap(photos["bad.jpg"]?.first)
        let id = try XCTUnwrap(bad["id"] as? String)
        XCTAssertEqual(bad["state"] as? String, "damaged")
        let reason = try XCTUnwrap(bad["damage"] as? String)
        XCTAssert(reason.contains("Premature end"), reason)
        XCTAssertEqual(photos["good.jpg"]?.first?["state"] as? String, "ok")
        XCTAssertNil(photos["good.jpg"]?.first?["damage"], "no damage field on a photo that is not damaged")

        // show prints the state with its reason; show --json carries both in its photo.
        let show = try TestSupport.album(["show", String(id.prefix(8))], in: folder)
        XCTAssert(show.stdout.contains("state    damaged: \(reason)"), show.stdout)
        let shown = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try TestSupport.album(["show", id, "--json"], in: folder).stdout.utf8)) as? [String: Any])
        XCTAssertEqual((shown["photo"] as? [String: Any])?["state"] as? String, "damaged")
        XCTAssertEqual((shown["photo"] as? [String: Any])?["damage"] as? String, reason)

        // The report marks it, with the reason.
        let report = try TestSupport.album(["report", "--out", "report.html"], in: folder)
        XCTAssertEqual(report.status, 0, report.stderr)
        let page = try String(contentsOfFile: folder + "/report.html", encoding: .utf8)
        XCTAssert(page.contains("<h2>States</h2>"), "the report lists states")
        XCTAssert(page.contains("damaged: \(ReportPage.escape(reason))"), "the damaged photo's card says why")
        XCTAssert(page.contains("<span class=\"state\">damaged</span><br>\(ReportPage.escape(reason))"), "listed among the damaged photos")

        // The next run leaves it alone: exit 0, no new failed step, and the summary names it.
        let plan = try TestSupport.album(["plan", "job.yml"], in: folder)
        XCTAssert(plan.stdout.contains("1 damaged photo, not retried: album ls --state damaged"), plan.stdout)
        let second = try TestSupport.album(["run", "job.yml"], in: folder)
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssert(second.stderr.contains("1 damaged photo, not retried: album ls --state damaged"), second.stderr)
        XCTAssertEqual(try steps(folder, photo: id, status: "failed"), 1, "not retried: still the one failed step")
        let json = try events(try TestSupport.album(["run", "job.yml", "--log-format", "json"], in: folder))
        let finished = try XCTUnwrap(json.last)
        XCTAssertEqual(finished["states"] as? [String: Int], ["damaged": 1, "missing": 0, "superseded": 0])
        XCTAssertEqual(finished["exit"] as? Int, 0)
        XCTAssertFalse(json.contains { $0["event"] as? String == "step" && $0["photo"] as? String == id && $0["stage"] as? String != "import" },
                       "no stage after import sees it")
        let runs = try TestSupport.album(["runs"], in: folder)
        XCTAssert(runs.stdout.contains("1 damaged"), "album runs shows the states each run met: \(runs.stdout)")

        // ls --state selects by state; an unknown state is a usage error naming the valid ones.
        XCTAssertEqual(Set(try listed(folder, ["--state", "damaged"]).keys), ["bad.jpg"])
        XCTAssertEqual(Set(try listed(folder, ["--state", "ok"]).keys), ["good.jpg", "other.jpg"])
        let table = try TestSupport.album(["ls"], in: folder)
        XCTAssert(table.stdout.split(separator: "\n").first?.contains("state") == true, table.stdout)
        XCTAssert(table.stdout.split(separator: "\n").contains { $0.contains("damaged") && $0.hasSuffix("/bad.jpg") }, table.stdout)
        let wrong = try TestSupport.album(["ls", "--state", "broken"], in: folder)
        XCTAssertEqual(wrong.status, 2)
        XCTAssert(wrong.stderr.contains("--state takes superseded, missing, changed, damaged or ok, got 'broken'"), wrong.stderr)

        // --retry-damaged takes it again: it fails again (a new failed step), and stays damaged.
        let retried = try TestSupport.album(["run", "job.yml", "--retry-damaged"], in: folder)
        XCTAssertEqual(retried.status, 1, retried.stderr)
        XCTAssertEqual(try steps(folder, photo: id, status: "failed"), 2, "retried: a second failed step")
        XCTAssertEqual(try listed(folder)["bad.jpg"]?.first?["state"] as? String, "damaged")

        // New bytes at its path are a new photo, without damage: taken at once, and the damaged version superseded.
        try Fixture.jpeg(at: folder + "/photos/bad.jpg", variant: 4)
        XCTAssertEqual(try Tool.run(["touch", "-m", "-d", "2001-02-03 04:05:06", folder + "/photos/bad.jpg"]).status, 0)
        let repaired = try TestSupport.album(["run", "job.yml"], in: folder)
        XCTAssertEqual(repaired.status, 0, repaired.stderr)
        photos = try listed(folder)
        XCTAssertEqual(Set(photos["bad.jpg"]?.compactMap { $0["state"] as? String } ?? []), ["ok", "superseded"])
        XCTAssert(FileSystem.exists(folder + "/out/bad.jpg"), "the repaired photo is exported")
    }

    /// A JPEG whose last strip is damaged only warns (libvips fails nothing; album's guard fails it under the default
    /// `on-damaged: fail`). With `on-damaged: warn` it decodes: `--retry-damaged` takes it and clears its damage.
    func testARetriedPhotoThatDecodesNowHasItsDamageCleared() throws {
        let folder = try TestSupport.temporaryFolder(self)
        var jpeg = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try Fixture.jpeg(at: folder + "/source.jpg", variant: 5))))
        let eoi = jpeg.count - 2
        XCTAssertEqual(Array(jpeg[eoi...]), [0xFF, 0xD9], "the JPEG ends with EOI")
        for i in eoi - 4..<eoi { jpeg[i] = 0x55 }
        try FileManager.default.createDirectory(atPath: folder + "/photos", withIntermediateDirectories: true)
        try Data(jpeg).write(to: URL(fileURLWithPath: folder + "/photos/strip.jpg"))
        try TestSupport.write(job, to: "job.yml", in: folder)
        XCTAssertEqual(try TestSupport.album(["run", "job.yml"], in: folder).status, 1)
        let damaged = try XCTUnwrap(try listed(folder)["strip.jpg"]?.first)
        XCTAssertEqual(damaged["state"] as? String, "damaged")
        XCTAssert((damaged["damage"] as? String)?.hasPrefix("damaged image data: the decoder reported") == true, "\(damaged)")

        try TestSupport.write(job.replacingOccurrences(of: "{from: photos}", with: "{from: photos, on-damaged: warn}"), to: "job.yml", in: folder)
        let notRetried = try TestSupport.album(["run", "job.yml"], in: folder)
        XCTAssertEqual(notRetried.status, 0, notRetried.stderr)
        XCTAssertFalse(FileSystem.exists(folder + "/out/strip.jpg"), "not retried without --retry-damaged")
        let retried = try TestSupport.album(["run", "job.yml", "--retry-damaged"], in: folder)
        XCTAssertEqual(retried.status, 0, retried.stderr)
        XCTAssert(FileSystem.exists(folder + "/out/strip.jpg"), "retried and exported")
        let cleared = try XCTUnwrap(try listed(folder)["strip.jpg"]?.first)
        XCTAssertEqual(cleared["state"] as? String, "ok")
        XCTAssertNil(cleared["damage"])
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT count(*) FROM photos WHERE damage IS NOT NULL"), ["0"])
    }

    func testAfterAnEditAndADeletionARerunRedoesOnlyTheEditedOneAndVerifyNamesOnlyTheMissing() throws {
        let folder = try TestSupport.temporaryFolder(self)
        for (name, variant) in [("edited", 1), ("deleted", 2), ("kept", 3)] {
            try Fixture.jpeg(at: "\(folder)/photos/\(name).jpg", variant: variant)
        }
        try TestSupport.write(job, to: "job.yml", in: folder)
        XCTAssertEqual(try TestSupport.album(["run", "job.yml"], in: folder).status, 0)
        let before = try listed(folder)
        let deletedID = try XCTUnwrap(before["deleted.jpg"]?.first?["id"] as? String)

        try Fixture.jpeg(at: folder + "/photos/edited.jpg", variant: 9)
        XCTAssertEqual(try Tool.run(["touch", "-m", "-d", "2001-02-03 04:05:06", folder + "/photos/edited.jpg"]).status, 0)
        try FileManager.default.removeItem(atPath: folder + "/photos/deleted.jpg")

        // verify before the rerun: the edit is a state (changed), the deletion a problem.
        let early = try TestSupport.album(["verify"], in: folder)
        XCTAssertEqual(early.status, 1)
        XCTAssert(early.stdout.contains("states: 1 changed"), early.stdout)

        let plan = try TestSupport.album(["plan", "job.yml"], in: folder)
        XCTAssert(plan.stdout.contains("1 missing photo (its original is gone)"), plan.stdout)
        let rerun = try TestSupport.album(["run", "job.yml", "--log-format", "json"], in: folder)
        XCTAssertEqual(rerun.status, 0, rerun.stderr)
        let json = try events(rerun)
        let done = json.filter { $0["event"] as? String == "step" && $0["status"] as? String == "done" && $0["stage"] as? String != "import" }
        XCTAssertEqual(Set(done.compactMap { (($0["path"] as? String ?? "") as NSString).lastPathComponent }), ["edited.jpg"],
                       "only the edited photo is rendered again: \(done)")
        XCTAssertEqual(done.count, 2, "its thumbnail and its export")
        XCTAssertFalse(json.contains { $0["photo"] as? String == deletedID }, "the missing photo is not sent through the stages")
        XCTAssertEqual(json.last?["states"] as? [String: Int], ["damaged": 0, "missing": 1, "superseded": 1])

        let after = try listed(folder)
        XCTAssertEqual(Set(after["edited.jpg"]?.compactMap { $0["state"] as? String } ?? []), ["ok", "superseded"])
        // The next run meets the superseded version once, counted once (not again as a photo whose file now holds
        // another photo's bytes).
        let planned = try TestSupport.album(["plan", "job.yml", "--json"], in: folder)
        let plannedStates = (try JSONSerialization.jsonObject(with: Data(planned.stdout.utf8)) as? [String: Any])?["states"]
        XCTAssertEqual(plannedStates as? [String: Int], ["damaged": 0, "missing": 1, "superseded": 1], planned.stdout)
        let third = try TestSupport.album(["run", "job.yml", "--log-format", "json"], in: folder)
        XCTAssertEqual(try events(third).last?["states"] as? [String: Int], ["damaged": 0, "missing": 1, "superseded": 1])
        XCTAssertEqual(after["deleted.jpg"]?.first?["state"] as? String, "missing")
        XCTAssertEqual(after["kept.jpg"]?.first?["state"] as? String, "ok")
        XCTAssertEqual(Set(try listed(folder, ["--state", "missing"]).keys), ["deleted.jpg"])

        // verify: the missing original is the one problem; the superseded version is a state, not checked.
        let verify = try TestSupport.album(["verify"], in: folder)
        XCTAssertEqual(verify.status, 1, verify.stdout + verify.stderr)
        XCTAssertEqual(verify.stdout.split(separator: "\n").map(String.init), [
            "\(folder)/photos/deleted.jpg: the original is missing (photo \(deletedID.prefix(8)))",
            "states: 1 superseded",
        ])
        let verifyJSON = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try TestSupport.album(["verify", "--json"], in: folder).stdout.utf8)) as? [String: Any])
        XCTAssertEqual((verifyJSON["problems"] as? [[String: String]])?.map { $0["path"] }, ["\(folder)/photos/deleted.jpg"])
        XCTAssertEqual((verifyJSON["states"] as? [String: Int])?["superseded"], 1)

        // A second rerun does nothing, exits 0, and names the missing photo in its summary.
        let again = try TestSupport.album(["run", "job.yml"], in: folder)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssert(again.stderr.contains("1 missing photo (its original is gone): album ls --state missing; album prune forgets it"), again.stderr)
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT count(*) FROM steps WHERE run = (SELECT max(id) FROM runs) AND status != 'skipped'"), ["0"])
    }

    /// A reference-mode original whose size, inode and modification time are as recorded but whose bytes differ has
    /// rotted on disk: a problem, named as such.
    func testVerifyNamesAnOriginalDamagedOnDisk() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let path = try Fixture.jpeg(at: folder + "/photos/rot.jpg", variant: 1)
        try TestSupport.write(job, to: "job.yml", in: folder)
        XCTAssertEqual(try TestSupport.album(["run", "job.yml"], in: folder).status, 0)
        let mtime = try Tool.run(["stat", "-c", "%.9Y", path]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let handle = try XCTUnwrap(FileHandle(forUpdatingAtPath: path))
        try handle.seek(toOffset: 400)
        let byte = try XCTUnwrap(try handle.read(upToCount: 1)?.first)
        try handle.seek(toOffset: 400)
        try handle.write(contentsOf: [byte ^ 0x01])
        try handle.close()
        XCTAssertEqual(try Tool.run(["touch", "-m", "-d", "@" + mtime, path]).status, 0)
        XCTAssertEqual(try Tool.run(["stat", "-c", "%.9Y", path]).stdout.trimmingCharacters(in: .whitespacesAndNewlines), mtime)

        XCTAssertEqual(try listed(folder)["rot.jpg"]?.first?["state"] as? String, "ok", "its stat says unchanged: ls does not hash")
        let verify = try TestSupport.album(["verify"], in: folder)
        XCTAssertEqual(verify.status, 1)
        XCTAssert(verify.stdout.contains("\(path): the original's SHA-256 differs from the one recorded, though its size, inode and modification time are as recorded: damaged on disk"),
                  verify.stdout)
    }

    /// Damage is told apart precisely: a rendering of an original that fails because its pixels do not decode is
    /// `DamagedImage`; the same failure from elsewhere (an encoder, here a VipsError thrown by the rendering over a
    /// sound original) is not.
    func testOnlyAnOriginalWhosePixelsDoNotDecodeIsDamaged() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let good = try FileBytes(path: try Fixture.jpeg(at: folder + "/good.jpg", variant: 1))
        let whole = try Data(contentsOf: URL(fileURLWithPath: good.path))
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: folder + "/cut.jpg"))
        let cut = try FileBytes(path: folder + "/cut.jpg")

        XCTAssertThrowsError(try LookRenderer.renderThumbnail(of: cut, recipe: .original, geometry: ThumbnailStage().geometry,
                                                              format: .jpeg, quality: 70, failOn: .truncated)) { error in
            XCTAssert(error is DamagedImage, "\(type(of: error)): \(error)")
            XCTAssert("\(error)".contains("Premature end"), "\(error)")
        }
        let encoderFailure = VipsError(operation: "jpegsave", message: "VipsJpeg: unable to write")
        XCTAssertThrowsError(try LookRenderer.guarded(failOn: .truncated, original: good) { () -> Int in throw encoderFailure }) { error in
            XCTAssert(error is VipsError, "a sound original: the failure is not damage (\(type(of: error)))")
        }
        XCTAssertThrowsError(try LookRenderer.guarded(failOn: .truncated, original: cut) { () -> Int in throw encoderFailure }) { error in
            XCTAssert(error is DamagedImage, "the original's pixels do not decode on their own: damage")
        }
        XCTAssertThrowsError(try LookRenderer.guarded(failOn: .truncated, original: nil) { () -> Int in throw encoderFailure }) { error in
            XCTAssert(error is VipsError, "not a rendering of an original: never damage")
        }
    }
}
