import XCTest
import System
import Vips
@testable import Catalogue
@testable import Run

/// The built `album` binary on photos the test generates: output, files, catalogue rows and exit statuses.
final class EndToEndTests: XCTestCase {
    /// Six photos: two taken in April 2008, one in 2007, three undated; one of them stored under orientation 6.
    func makeAlbum(in folder: String) throws -> [String] {
        [
            try Fixture.jpeg(at: "\(folder)/photos/storm.jpg", taken: "2008:04:20 19:12:06"),
            try Fixture.jpeg(at: "\(folder)/photos/wood.jpg", orientation: 6, taken: "2008:04:19 13:43:16"),
            try Fixture.jpeg(at: "\(folder)/photos/dune.jpg", taken: "2007:08:06 10:29:13"),
            try Fixture.jpeg(at: "\(folder)/photos/nested/aqua.jpg", width: 400, height: 300),
            try Fixture.jpeg(at: "\(folder)/photos/nested/leaf.JPG", width: 200, height: 400),
            try Fixture.jpeg(at: "\(folder)/photos/meadow.jpeg", orientation: 3),
        ]
    }

    let job = """
        version: 1
        name: sample
        catalogue: album
        stages:
          - import:
              from: photos
          - filter:
              preset: sepia
              select: {taken: 2008-04-01..2008-04-30}
          - thumbnail: {size: 240x240, quality: 70}
          - export: {from: thumbnail, to: "out/{name}.jpg"}
        """

    func testAJobImportsFiltersThumbnailsAndExportsThenSkipsEverythingOnRerun() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let originals = try makeAlbum(in: folder)
        let before = try originals.map(TestSupport.hash)
        try TestSupport.write(job, to: "job.yml", in: folder)

        let first = try TestSupport.album(["run", "job.yml"], in: folder)
        XCTAssertEqual(first.status, 0, first.stderr)
        for name in ["storm", "wood", "dune", "aqua", "leaf", "meadow"] {
            let path = "\(folder)/out/\(name).jpg"
            let image = try Image.open(FileBytes(path: path), sequential: true, failOn: .error)
            XCTAssertEqual([image.width, image.height], [240, 240], name)
            XCTAssertFalse(image.has("exif-data"), "\(name): thumbnails carry no metadata")
        }
        // The orientation-3 photo's thumbnail is upright: red top-left quadrant (a cover crop keeps the centre).
        let meadow = try Fixture.quadrants(of: "\(folder)/out/meadow.jpg")
        XCTAssertGreaterThan(meadow.means[0][0], 150, "upright, red at top-left")
        XCTAssertGreaterThan(meadow.means[3][2], 150, "upright, blue at bottom-right")

        let list = try TestSupport.album(["ls", "--catalogue", "album", "--json"], in: folder)
        XCTAssertEqual(list.status, 0, list.stderr)
        let photos = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(photos.count, 6)
        let byName = Dictionary(uniqueKeysWithValues: photos.map { (($0["path"] as! String as NSString).lastPathComponent, $0) })
        XCTAssertEqual(byName["storm.jpg"]?["taken"] as? String, "2008-04-20T19:12:06")
        XCTAssertEqual(byName["wood.jpg"]?["width"] as? Int, 320, "the upright width of an orientation-6 photo stored 200 wide")
        XCTAssertEqual(byName["wood.jpg"]?["height"] as? Int, 200)
        XCTAssert(byName["aqua.jpg"]?["taken"] is NSNull, "undated photos have no taken, not 'now'")
        XCTAssertEqual(Set(photos.filter { $0["filter"] as? String == "sepia" }.map { ($0["path"] as! String as NSString).lastPathComponent }),
                       ["storm.jpg", "wood.jpg"], "sepia only on April 2008")
        for key in ["id", "path", "hash", "taken", "added", "width", "height", "filter", "caption"] {
            XCTAssertNotNil(photos[0][key], "ls --json has \(key)")
        }
        // The sepia look shows in the thumbnail: the strong blue (20, 20, 200) becomes a dull brown-grey.
        let storm = try Fixture.quadrants(of: "\(folder)/out/storm.jpg")
        XCTAssertLessThan(storm.means[3][2], 90, "sepia takes the blue out")
        XCTAssertGreaterThan(storm.means[3][0], 40, "sepia warms it")
        let dune = try Fixture.quadrants(of: "\(folder)/out/dune.jpg")
        XCTAssertGreaterThan(dune.means[3][2], 150, "an unfiltered photo keeps its blue")

        let second = try TestSupport.album(["run", "job.yml"], in: folder)
        XCTAssertEqual(second.status, 0, second.stderr)
        let catalogue = try Catalogue(folder: folder + "/album", create: false)
        defer { catalogue.close() }
        let runs = try catalogue.runs()
        XCTAssertEqual(runs.count, 2)
        let rerun = try catalogue.stepCounts(run: runs[0].id)
        XCTAssertEqual(rerun[.import], [.skipped: 6])
        XCTAssertEqual(rerun[.filter], [.skipped: 2])
        XCTAssertEqual(rerun[.thumbnail], [.skipped: 6])
        XCTAssertEqual(rerun[.export], [.skipped: 6])
        XCTAssertEqual(try originals.map(TestSupport.hash), before, "originals are never written")

        // `album plan` hashes each stage's parameters itself; the scheduler hashes them once per run: they agree.
        let plan = try TestSupport.album(["plan", "job.yml"], in: folder)
        XCTAssertEqual(plan.status, 0, plan.stderr)
        for (stage, upToDate) in [("filter", 2), ("thumbnail", 6), ("export", 6)] {
            XCTAssertNotNil(plan.stdout.range(of: "\(stage) +0 +\(upToDate) ", options: .regularExpression),
                            "\(stage): nothing to do, \(upToDate) up to date\n\(plan.stdout)")
        }
    }

    func testOneLineKeepsOneLineMessagesAndJoinsTheRest() {
        XCTAssertEqual(Scheduler.oneLine("up to date"), "up to date")
        XCTAssertEqual(Scheduler.oneLine("  padded\t"), "padded")
        XCTAssertEqual(Scheduler.oneLine("first\nsecond\r\n\nthird"), "first; second; third")
        XCTAssertEqual(Scheduler.oneLine("form\u{0C}feed"), "form; feed", "vertical whitespace is a line break too")
        XCTAssertEqual(Scheduler.oneLine("café\u{2028}crème"), "café; crème")
    }

    func testOneBadPhotoFailsItselfAndTheRestOfTheRunGoesOn() throws {
        let folder = try TestSupport.temporaryFolder(self)
        _ = try makeAlbum(in: folder)
        try TestSupport.write("<!DOCTYPE html><html>Not found</html>", to: "photos/broken.jpg", in: folder)
        try TestSupport.write("", to: "photos/empty.jpg", in: folder)
        let good = try Data(contentsOf: URL(fileURLWithPath: "\(folder)/photos/dune.jpg"))
        try good.prefix(good.count / 2).write(to: URL(fileURLWithPath: "\(folder)/photos/truncated.jpg"))
        try TestSupport.write(job, to: "job.yml", in: folder)

        let result = try TestSupport.album(["run", "job.yml"], in: folder)
        XCTAssertEqual(result.status, 1, "some photos failed")
        XCTAssert(result.stderr.contains("album: import failed: \(folder)/photos/broken.jpg: not an image: it is an HTML page"), result.stderr)
        XCTAssert(result.stderr.contains("photos/empty.jpg: not an image: the file is empty"), result.stderr)
        XCTAssert(result.stderr.contains("photos/truncated.jpg: damaged image data: the decoder reported \"Premature end of JPEG file\""), result.stderr)
        let exported = try FileManager.default.contentsOfDirectory(atPath: folder + "/out")
        XCTAssertEqual(Set(exported), ["storm.jpg", "wood.jpg", "dune.jpg", "aqua.jpg", "leaf.jpg", "meadow.jpg"])
    }

    func testVersionNamesLibvipsAndSQLite() throws {
        let result = try TestSupport.album(["--version"])
        XCTAssertEqual(result.status, 0)
        XCTAssertNotNil(result.stdout.range(of: #"libvips 8\.\d+"#, options: .regularExpression), result.stdout)
        XCTAssertNotNil(result.stdout.range(of: #"SQLite 3\.\d+"#, options: .regularExpression), result.stdout)
    }

    func testEveryCommandHasHelp() throws {
        let top = try TestSupport.album(["--help"])
        XCTAssertEqual(top.status, 0)
        for command in ["run", "import", "ls", "show", "runs", "caption", "relocate", "rm", "prune", "verify", "gc", "report", "plan", "check", "parse", "completion"] {
            XCTAssert(top.stdout.contains("  \(command)"), "album --help lists \(command)")
            let help = try TestSupport.album([command, "--help"])
            XCTAssertEqual(help.status, 0, command)
            XCTAssert(help.stdout.contains("usage: album \(command)"), help.stdout)
        }
    }

    func testUsageAndJobFileErrorsExitTwoAndCatalogueErrorsExitThree() throws {
        let folder = try TestSupport.temporaryFolder(self)
        XCTAssertEqual(try TestSupport.album(["frobnicate"]).status, 2)
        XCTAssert(try TestSupport.album(["rnu"]).stderr.contains("did you mean 'run'?"))
        XCTAssertEqual(try TestSupport.album(["run"]).status, 2)
        XCTAssertEqual(try TestSupport.album(["run", "a.yml", "--workers", "zero"]).status, 2)
        try TestSupport.write("version: 1\nstages:\n  - thumbnial: {}\n", to: "typo.yml", in: folder)
        let typo = try TestSupport.album(["run", "typo.yml"], in: folder)
        XCTAssertEqual(typo.status, 2)
        XCTAssert(typo.stderr.contains("typo.yml:3:5: error: unknown stage 'thumbnial'; did you mean 'thumbnail'?"), typo.stderr)
        let missing = try TestSupport.album(["ls", "--catalogue", "nowhere"], in: folder)
        XCTAssertEqual(missing.status, 3)
        XCTAssert(missing.stderr.contains("no catalogue at"), missing.stderr)
    }
}

final class FilteredExportTests: XCTestCase {
    /// A full-size export encoded like the filter stage's own rendition is that file, copied: the look is decoded,
    /// filtered and encoded once per photo, not twice.
    func testAnExportOfTheFilteredLookReusesTheFilterStagesFile() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try Fixture.jpeg(at: "\(folder)/photos/a.jpg", width: 400, height: 300, orientation: 6)
        try TestSupport.write("""
            version: 1
            stages:
              - import: {from: photos}
              - filter: {preset: sepia, keep: full-size}
              - export: {from: image, to: "out/{name}.jpg"}
              - export: {from: image, to: "small/{name}.jpg", max-size: 100}
            """, to: "job.yml", in: folder)
        XCTAssertEqual(try TestSupport.album(["run", "job.yml"], in: folder).status, 0)
        let catalogue = try CatalogueReader(folder: folder + "/album")
        defer { catalogue.close() }
        let filtered = try XCTUnwrap(try catalogue.renditions(kind: .filtered).first)
        XCTAssertEqual(try TestSupport.hash("\(folder)/out/a.jpg"), filtered.fileHash, "the same bytes")
        XCTAssertEqual([filtered.width, filtered.height], [400, 300], "upright")
        let small = try Image.open(FileBytes(path: "\(folder)/small/a.jpg"), sequential: false, failOn: .error)
        XCTAssertEqual([small.width, small.height], [100, 75], "another encoding is rendered anew")
    }
}
