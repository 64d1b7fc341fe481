import Foundation
import XCTest
@testable import Stages
@testable import JobFile

/// The filter stage records a look and, unless `keep: full-size` asks for it, writes no full-size file: thumbnails
/// and exports render the original with the look themselves, to the same pixels. Every run goes through the built
/// binary on generated photos; files and rows are read back with djpeg and the sqlite3 shell (`Probe`).
final class LazyFilterTests: XCTestCase {
    /// Three photos, two of them inside the date range the filter selects.
    private let taken = ["a": "2024:07:01 10:00:00", "b": "2024:07:15 10:00:00", "c": "2023:01:01 10:00:00"]

    /// Import, sepia on a date range (with `keep`, when given), a thumbnail and a full-size export of the look.
    private func job(preset: String = "sepia", keep: String? = nil) -> String {
        """
        version: 1
        catalogue: album
        stages:
          - import: {from: photos}
          - filter: {preset: \(preset)\(keep.map { ", keep: \($0)" } ?? ""), select: {taken: 2024-06-01..2024-08-31}}
          - thumbnail: {size: 160x160, fit: contain}
          - export: {from: image, to: "out/{name}.jpg"}
        """
    }

    /// Writes the three photos (orientation 6 for `a`, so the look is rendered upright) under `folder/photos`.
    private func photos(in folder: String) throws {
        for (variant, name) in taken.keys.sorted().enumerated() {
            try Fixture.jpeg(at: "\(folder)/photos/\(name).jpg", width: 400, height: 300, orientation: name == "a" ? 6 : 1,
                             taken: taken[name], variant: variant)
        }
    }

    @discardableResult
    private func run(_ job: String, in folder: String) throws -> String {
        try TestSupport.write(job, to: "job.yml", in: folder)
        let result = try TestSupport.album(["run", "job.yml"], in: folder)
        XCTAssertEqual(result.status, 0, result.stderr)
        return result.stderr
    }

    /// The newest run's count of `stage` steps with `status`.
    private func count(_ stage: String, _ status: String, in folder: String) throws -> Int {
        let rows = try Probe.rows(folder + "/album", "SELECT json_extract(counts, '$.\(stage).\(status)') FROM runs ORDER BY id DESC LIMIT 1")
        return Int(rows.first ?? "") ?? 0
    }

    /// Regular files under `folder/sub`, relative to it (none when it does not exist).
    private func files(_ folder: String, under sub: String) -> [String] {
        let root = folder + "/" + sub
        guard let names = FileManager.default.enumerator(atPath: root) else { return [] }
        return names.compactMap { $0 as? String }.filter {
            var directory: ObjCBool = false
            return FileManager.default.fileExists(atPath: root + "/" + $0, isDirectory: &directory) && !directory.boolValue
        }.sorted()
    }

    /// The largest difference of any channel of any pixel between two JPEGs of the same size.
    private func largestDifference(_ a: String, _ b: String) throws -> Int {
        let x = try Probe.decodeJPEG(a), y = try Probe.decodeJPEG(b)
        XCTAssertEqual([x.width, x.height], [y.width, y.height], "\(a) and \(b) have the same size")
        guard x.rgb.count == y.rgb.count else { return 255 }
        return zip(x.rgb, y.rgb).map { abs(Int($0) - Int($1)) }.max() ?? 0
    }

    /// The default writes no `filtered/` file and no filtered row, and its thumbnails and exports have the pixels of
    /// a `keep: full-size` run's (within ±2 levels): the look is there, rendered from the original.
    func testADefaultFilterWritesNoFullSizeFileAndGivesTheSamePixelsAsKeepFullSize() throws {
        let lazy = try TestSupport.temporaryFolder(self) + "/lazy", kept = lazy + "-kept"
        try photos(in: lazy)
        try photos(in: kept)
        try run(job(), in: lazy)
        try run(job(keep: "full-size"), in: kept)

        XCTAssertEqual(files(lazy, under: "album/filtered"), [], "no full-size file unless one is asked for")
        XCTAssertEqual(try Probe.rows(lazy + "/album", "SELECT count(*) FROM renditions WHERE kind = 'filtered'"), ["0"])
        XCTAssertEqual(files(kept, under: "album/filtered").count, 2, "keep: full-size stores the two filtered photos' looks")
        XCTAssertEqual(try Probe.rows(lazy + "/album", "SELECT path, filter FROM photos ORDER BY path").map { $0.components(separatedBy: "|")[1] },
                       ["sepia", "sepia", "none"], "the look is recorded on the photos in the range")
        XCTAssertEqual(try count("filter", "done", in: lazy), 2)

        for name in taken.keys.sorted() {
            let thumbnails = try [lazy, kept].map { try Probe.newestThumbnail($0 + "/album", original: "\($0)/photos/\(name).jpg") }
            XCTAssertLessThanOrEqual(try largestDifference(thumbnails[0], thumbnails[1]), 2, "\(name)'s thumbnail")
            XCTAssertLessThanOrEqual(try largestDifference("\(lazy)/out/\(name).jpg", "\(kept)/out/\(name).jpg"), 2, "\(name)'s export")
        }
        let export = try Probe.decodeJPEG("\(lazy)/out/a.jpg")
        XCTAssertEqual([export.width, export.height], [400, 300], "the export is rendered upright at full size")
        // The look is really there: sepia leaves little of the quadrants' colour, the photo outside the range keeps it.
        XCTAssertLessThan(export.meanChroma, try Probe.decodeJPEG("\(lazy)/out/c.jpg").meanChroma / 2)

        let verify = try TestSupport.album(["verify"], in: lazy)
        XCTAssertEqual(verify.status, 0, verify.stdout + verify.stderr)
    }

    /// A rerun of the default job does nothing; a switch to another look records it (filter done), renders the
    /// thumbnails and exports again with it, and still writes no full-size file; the switch back is done again.
    func testARerunDoesNothingAndALookSwitchRendersTheNewLook() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try photos(in: folder)
        try run(job(), in: folder)
        let thumbnail = try Probe.newestThumbnail(folder + "/album", original: "\(folder)/photos/b.jpg")
        let sepia = try TestSupport.hash("\(folder)/out/b.jpg")

        try run(job(), in: folder)
        for stage in ["filter", "thumbnail", "export"] {
            XCTAssertEqual(try count(stage, "done", in: folder), 0, "\(stage): nothing is redone")
        }
        XCTAssertEqual(try count("filter", "skipped", in: folder), 2, "the photos already have the look")
        XCTAssertEqual(try TestSupport.hash("\(folder)/out/b.jpg"), sepia)
        let forced = try TestSupport.album(["run", "job.yml", "--force"], in: folder)
        XCTAssertEqual(forced.status, 0, forced.stderr)
        XCTAssertEqual(try count("filter", "done", in: folder), 2, "--force records the look again")
        XCTAssertEqual(files(folder, under: "album/filtered"), [], "and still writes no full-size file")
        XCTAssertEqual(try TestSupport.hash("\(folder)/out/b.jpg"), sepia, "the export rendered again is the same file")

        try run(job(preset: "noir"), in: folder)
        XCTAssertEqual(try count("filter", "done", in: folder), 2, "a look switch is filter done")
        XCTAssertEqual(try count("thumbnail", "done", in: folder), 2)
        XCTAssertEqual(try count("export", "done", in: folder), 2)
        XCTAssertNotEqual(try TestSupport.hash("\(folder)/out/b.jpg"), sepia, "the export has the new look")
        XCTAssertNotEqual(try Probe.newestThumbnail(folder + "/album", original: "\(folder)/photos/b.jpg"), thumbnail)
        XCTAssertLessThan(try Probe.decodeJPEG("\(folder)/out/b.jpg").meanChroma, 3, "noir is grey")
        XCTAssertEqual(files(folder, under: "album/filtered"), [])

        try run(job(), in: folder)
        XCTAssertEqual(try count("filter", "done", in: folder), 2, "switching back is a change too")
        XCTAssertEqual(try count("thumbnail", "done", in: folder), 0, "the sepia look's thumbnails are still there, intact")
        XCTAssert(FileManager.default.fileExists(atPath: thumbnail), thumbnail)
        XCTAssertEqual(try count("export", "done", in: folder), 2, "the exports held noir")
        XCTAssertEqual(try TestSupport.hash("\(folder)/out/b.jpg"), sepia, "the same look, rendered the same way, gives the same file")
        let verify = try TestSupport.album(["verify"], in: folder)
        XCTAssertEqual(verify.status, 0, verify.stdout + verify.stderr)
    }

    /// `keep: full-size` and the default are different parameters: going from one to the other writes (or stops
    /// writing) full-size files without rendering the thumbnails or exports again, and a rerun of either does nothing.
    func testKeepFullSizeAfterTheDefaultWritesTheFilesAndNothingElse() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try photos(in: folder)
        try run(job(), in: folder)
        try run(job(keep: "full-size"), in: folder)
        XCTAssertEqual(try count("filter", "done", in: folder), 2, "the full-size files are written")
        XCTAssertEqual(try count("thumbnail", "done", in: folder) + (try count("export", "done", in: folder)), 0,
                       "the look is the same, so are its thumbnails and exports")
        XCTAssertEqual(files(folder, under: "album/filtered").count, 2)
        try run(job(keep: "full-size"), in: folder)
        XCTAssertEqual(try count("filter", "done", in: folder), 0)
        try run(job(), in: folder)
        XCTAssertEqual(try count("filter", "done", in: folder), 0, "the look alone is up to date")
        let verify = try TestSupport.album(["verify"], in: folder)
        XCTAssertEqual(verify.status, 0, verify.stdout + verify.stderr)
    }

    /// A catalogue made by an album that wrote every full-size file (rows keyed by the parameters a filter stage
    /// had before `keep`, which the default still hashes to) reruns with the default cleanly: nothing is redone and
    /// its filtered files stay valid for `album verify`. `album prune` keeps them while the older run is the job's
    /// latest (it kept full-size files), and deletes them once a run of the default says no stage keeps any; verify
    /// and plan stay clean (docs/catalogue.md "Pruning").
    func testACatalogueWithEagerRenditionsRerunsTheDefaultCleanly() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try photos(in: folder)
        try run(job(keep: "full-size"), in: folder)
        // What an older album recorded: the same files, keyed by the parameters without `keep`.
        let defaultJob = try JobLoader.load(path: try TestSupport.write(job(), to: "default.yml", in: folder))
        let filter = try XCTUnwrap(defaultJob.stages.first as? FilterStage)
        XCTAssertEqual(filter.parameters.text, #"{"preset":"sepia","recipe":[{"sepia":{"amount":0.85}}],"quality":90,"select":{"taken":"2024-06-01..2024-08-31"}}"#)
        let legacy = StageParameters(stage: .filter, parameters: filter.parameters, software: .current).hash
        let keptJob = try JobLoader.load(path: try TestSupport.write(job(keep: "full-size"), to: "kept.yml", in: folder))
        let kept = StageParameters(stage: .filter, parameters: try XCTUnwrap(keptJob.stages.first as? FilterStage).parameters,
                                   software: .current).hash
        _ = try Tool.sqlite(folder + "/album/catalogue.db", """
            UPDATE renditions SET params_hash = '\(legacy)' WHERE kind = 'filtered';
            UPDATE runs SET stages = replace(replace(stages, '\(kept)', '\(legacy)'), ',"keep":"full-size"', '');
            """, writing: true)
        let eager = files(folder, under: "album/filtered")
        XCTAssertEqual(eager.count, 2)
        XCTAssertEqual(try TestSupport.album(["prune"], in: folder).status, 0)
        XCTAssertEqual(files(folder, under: "album/filtered"), eager, "the job's latest run kept full-size files: they stay")

        let stderr = try run(job(), in: folder)
        for stage in ["filter", "thumbnail", "export"] {
            XCTAssertEqual(try count(stage, "done", in: folder), 0, "\(stage): nothing is redone (\(stderr))")
        }
        XCTAssertEqual(try count("filter", "failed", in: folder), 0)
        XCTAssertEqual(files(folder, under: "album/filtered"), eager, "the eager files are left as they are")
        var verify = try TestSupport.album(["verify"], in: folder)
        XCTAssertEqual(verify.status, 0, verify.stdout + verify.stderr)

        let prune = try TestSupport.album(["prune"], in: folder)
        XCTAssertEqual(prune.status, 0, prune.stderr)
        XCTAssert(prune.stdout.contains("(no stage keeps full-size filtered images now)"), prune.stdout)
        XCTAssertEqual(files(folder, under: "album/filtered"), [], "the default's run says no stage keeps them")
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT count(*) FROM renditions WHERE kind = 'filtered'"), ["0"])
        verify = try TestSupport.album(["verify"], in: folder)
        XCTAssertEqual(verify.status, 0, verify.stdout + verify.stderr)
        try run(job(), in: folder)
        for stage in ["filter", "thumbnail", "export"] {
            XCTAssertEqual(try count(stage, "done", in: folder), 0, "\(stage): still nothing to redo after the prune")
        }
        let plan = try TestSupport.album(["plan", "job.yml"], in: folder)
        XCTAssertEqual(plan.status, 0, plan.stderr)
    }
    /// The look-only filter step decodes nothing, so a damaged original is found by the first stage that renders it:
    /// the thumbnail fails it as damaged, and it gets no thumbnail, export or filtered file.
    func testADamagedOriginalIsFailedByItsFirstRenderingAndGetsNoFile() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try photos(in: folder)
        let whole = try Data(contentsOf: URL(fileURLWithPath: "\(folder)/photos/b.jpg"))
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: "\(folder)/photos/b.jpg"))
        try TestSupport.write(job(), to: "job.yml", in: folder)
        let result = try TestSupport.album(["run", "job.yml"], in: folder)
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertEqual(try Probe.rows(folder + "/album", """
            SELECT count(*) FROM renditions r JOIN photos p ON p.id = r.photo WHERE p.path LIKE '%/b.jpg'
            """), ["0"])
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT damage IS NOT NULL FROM photos WHERE path LIKE '%/b.jpg'"), ["1"])
        XCTAssertEqual(try Probe.rows(folder + "/album", """
            SELECT s.stage FROM steps s WHERE s.status = 'failed' AND s.path LIKE '%/b.jpg'
            """), ["thumbnail"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: "\(folder)/out/b.jpg"))
        XCTAssertEqual(files(folder, under: "out"), ["a.jpg", "c.jpg"], "the other photos are rendered")
    }
}
