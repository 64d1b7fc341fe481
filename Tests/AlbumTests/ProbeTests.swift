import Foundation
import XCTest
@testable import Core
@testable import Catalogue
@testable import JobFile
@testable import Run
@testable import Stages

/// Issue 34: a rerun decides that a file's photo has nothing to do from a probe of a few columns
/// (`CatalogueReader.probedPhotos`, `probedRenditions`, `Scheduler.probe`) instead of its whole row. These hold the
/// probe's decisions, import's and the thumbnail's, to the same decisions made on whole records, over a catalogue
/// where every kind of answer occurs; and a row the probe cannot read makes it step aside.
final class ProbeTests: XCTestCase {
    /// Photos in every state a rerun meets: up to date (one with a filtered look, one with a sidecar), one whose
    /// thumbnail file is gone, one touched since, one damaged, and one path with two versions.
    func makeLibrary() throws -> (folder: String, job: Job) {
        let folder = try TestSupport.temporaryFolder(self)
        for i in 0..<6 { try Fixture.jpeg(at: "\(folder)/photos/p\(i).jpg", width: 64 + i, height: 48, variant: i) }
        try TestSupport.write("""
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:Rating="4"/></rdf:RDF></x:xmpmeta>
            """, to: "photos/p1.xmp", in: folder)
        try TestSupport.write("""
            version: 1
            catalogue: album
            stages:
              - import: {from: photos}
              - filter: {preset: sepia, select: {path: p2.jpg}}
              - thumbnail: {size: 32x32}
            """, to: "filtered.yml", in: folder)
        XCTAssertEqual(try TestSupport.album(["run", "filtered.yml", "--quiet"], in: folder).status, 0)
        // A second version at p5's path: the first is replaced, both rows stay.
        try Fixture.jpeg(at: "\(folder)/photos/p5.jpg", width: 90, height: 48, variant: 9)
        try TestSupport.write("""
            version: 1
            catalogue: album
            stages:
              - import: {from: photos}
              - thumbnail: {size: 32x32}
            """, to: "job.yml", in: folder)
        XCTAssertEqual(try TestSupport.album(["run", "job.yml", "--quiet"], in: folder).status, 0)
        let job = try JobLoader.load(path: folder + "/job.yml")
        let reader = try CatalogueReader(folder: job.catalogue)
        defer { reader.close() }
        // p3's thumbnail file gone; p4 touched; p0 damaged.
        let p3 = try XCTUnwrap(try reader.photos(atPath: "\(folder)/photos/p3.jpg").first)
        for rendition in try reader.renditions(photo: p3.id) { try FileManager.default.removeItem(atPath: rendition.path) }
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: "\(folder)/photos/p4.jpg")
        let p0 = try XCTUnwrap(try reader.photos(atPath: "\(folder)/photos/p0.jpg").first)
        try sqlite(job.catalogue, "UPDATE photos SET damage = 'a test' WHERE id = '\(p0.id)'")
        return (folder, job)
    }

    func sqlite(_ catalogue: String, _ sql: String) throws {
        let result = try Tool.run(["sqlite3", catalogue + "/" + Catalogue.databaseName, sql])
        XCTAssertEqual(result.status, 0, result.stderr)
    }

    /// The fields a probe reads, as text, to compare a probed record with the whole one.
    func probed(_ photo: PhotoRecord) -> [String] {
        [photo.id, photo.hash, photo.path, "\(photo.bytes)", "\(photo.mtimeNanoseconds)", "\(photo.inode)", photo.format, photo.added,
         photo.filterRecipe, photo.replaces ?? "-", photo.damage ?? "-", photo.sidecar ?? "-", "\(photo.sidecarIdentity)"]
    }

    func probed(_ rendition: Rendition) -> [String] {
        [rendition.photo, rendition.kind.rawValue, rendition.parametersHash, rendition.inputHash, rendition.path, rendition.fileHash,
         "\(rendition.bytes)"]
    }

    func context(_ job: Job, renditions: @escaping @Sendable (String) throws -> [Rendition]) -> StageContext {
        var context = StageContext(catalogueFolder: job.catalogue, run: 0, software: Software.current, catalogue: { _ in })
        context.recordedRenditions = renditions
        return context
    }

    func testAProbeReadsWhatTheWholeRowHoldsAndDecidesAsItDoes() throws {
        let (folder, job) = try makeLibrary()
        let reader = try CatalogueReader(folder: job.catalogue)
        defer { reader.close() }
        let scan = try XCTUnwrap(job.importStage).scan(skipping: DerivedFiles(), parallel: nil)
        XCTAssertEqual(scan.files.count, 6)
        let source = try XCTUnwrap(job.importStage)
        let stage = try XCTUnwrap(job.stages.first)
        XCTAssertTrue(type(of: stage).probesUpToDate)
        var decisions: [String: String] = [:]
        for (index, path) in scan.files.enumerated() {
            let whole = try reader.photos(atPath: path)
            let probes = try XCTUnwrap(try reader.probedPhotos(atPath: path), path)
            XCTAssertEqual(probes.map(probed), whole.map(probed), "\(path): the same rows, in the same order")
            let identity = try XCTUnwrap(scan.identity(at: index))
            guard let known = whole.first, let probe = probes.first else { return XCTFail("\(path) is in the catalogue") }
            // Each photo's renditions, whole and probed, as the run's context answers them.
            let renditions = try reader.renditions(photo: known.id)
            let probedRenditions = try XCTUnwrap(try reader.probedRenditions(photo: known.id))
            XCTAssertEqual(probedRenditions.map(probed), renditions.map(probed), path)
            let wholeContext = context(job) { _ in renditions }, probeContext = context(job) { _ in probedRenditions }
            let importWhole = source.unchanged(path, sidecar: scan.sidecars[path], identity: identity, known: known, context: wholeContext)
            let importProbe = source.unchanged(path, sidecar: scan.sidecars[path], identity: identity, known: probe, context: probeContext)
            XCTAssertEqual(importProbe.map { "\($0.1)" }, importWhole.map { "\($0.1)" }, path)
            guard var wholeWork = importWhole?.0, var probeWork = importProbe?.0 else {
                decisions[(path as NSString).lastPathComponent] = "import"
                continue
            }
            let thumbnailWhole = try stage.upToDate(probing: &wholeWork, context: wholeContext)
            let thumbnailProbe = try stage.upToDate(probing: &probeWork, context: probeContext)
            XCTAssertEqual(thumbnailProbe.map { "\($0)" }, thumbnailWhole.map { "\($0)" }, path)
            decisions[(path as NSString).lastPathComponent] = thumbnailProbe == nil ? "thumbnail" : "nothing"
        }
        // Every kind of answer was met, so the comparison above covered each.
        XCTAssertEqual(decisions, ["p0.jpg": "nothing", "p1.jpg": "nothing", "p2.jpg": "nothing", "p3.jpg": "thumbnail",
                                   "p4.jpg": "import", "p5.jpg": "nothing"], "\(folder)")
        XCTAssertNotNil(try reader.probedPhotos(atPath: "\(folder)/photos/p0.jpg")?.first?.damage, "the run holds p0 back")
        XCTAssertEqual(try reader.photos(atPath: "\(folder)/photos/p5.jpg").count, 2, "two versions at p5's path")
        XCTAssertNotNil(try reader.probedPhotos(atPath: "\(folder)/photos/p1.jpg")?.first?.sidecar, "p1 has its sidecar")
    }

    func testAMalformedRowMakesTheProbeStepAsideAndTheRunSaysWhat() throws {
        let (folder, job) = try makeLibrary()
        // `inode`: a column the probe reads and the run's walks of the whole table (`countAfterImport`) do not.
        try sqlite(job.catalogue, "UPDATE photos SET inode = 'many' WHERE path LIKE '%p1.jpg'")
        let reader = try CatalogueReader(folder: job.catalogue)
        XCTAssertNil(try reader.probedPhotos(atPath: "\(folder)/photos/p1.jpg"), "no probe of a row it cannot read")
        XCTAssertNotNil(try reader.probedPhotos(atPath: "\(folder)/photos/p2.jpg"), "the others are read")
        XCTAssertThrowsError(try reader.photos(atPath: "\(folder)/photos/p1.jpg"), "the whole row's read says what")
        reader.close()
        // The run takes p1 through its chain, whose read of the whole row says what is wrong with it, instead of
        // skipping it as up to date from the columns the probe could read.
        let run = try TestSupport.album(["run", "job.yml", "--quiet"], in: folder)
        XCTAssertNotEqual(run.status, 0, run.stderr)
        XCTAssert(run.stderr.contains("p1.jpg") && run.stderr.contains("column inode holds text 'many'"), run.stderr)
    }

    /// The status of each step a `--log-format json` run printed, by file name and stage.
    func steps(_ run: (status: Int32, stdout: String, stderr: String)) throws -> [String: String] {
        var steps: [String: String] = [:]
        for line in run.stdout.split(separator: "\n") {
            let event = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            guard event["event"] as? String == "step", let path = event["path"] as? String, let stage = event["stage"] as? String else { continue }
            steps["\((path as NSString).lastPathComponent) \(stage)"] = event["status"] as? String
        }
        return steps
    }

    func testARerunRedoesWhatItsProbeFindsOutOfDateAndSkipsTheRest() throws {
        let folder = try TestSupport.temporaryFolder(self)
        for i in 0..<3 { try Fixture.jpeg(at: "\(folder)/photos/p\(i).jpg", width: 64 + i, height: 48, variant: i) }
        func job(_ size: String) throws {
            try TestSupport.write("version: 1\ncatalogue: album\nstages:\n  - import: {from: photos}\n  - thumbnail: {size: \(size)}\n",
                                  to: "job.yml", in: folder)
        }
        func run() throws -> [String: String] {
            let run = try TestSupport.album(["run", "job.yml", "--log-format", "json"], in: folder)
            XCTAssertEqual(run.status, 0, run.stderr)
            return try steps(run)
        }
        try job("32x32")
        XCTAssertEqual(Set(try run().values), ["done"])
        let everything = ["p0.jpg import", "p0.jpg thumbnail", "p1.jpg import", "p1.jpg thumbnail", "p2.jpg import", "p2.jpg thumbnail"]
        XCTAssertEqual(try run(), Dictionary(uniqueKeysWithValues: everything.map { ($0, "skipped") }), "a no-op: every step skipped, none missing")
        // p1's thumbnail file deleted: its thumbnail is made again, and nothing else.
        let reader = try CatalogueReader(folder: folder + "/album")
        let p1 = try XCTUnwrap(try reader.photos(atPath: "\(folder)/photos/p1.jpg").first)
        for rendition in try reader.renditions(photo: p1.id) { try FileManager.default.removeItem(atPath: rendition.path) }
        reader.close()
        var expected = Dictionary(uniqueKeysWithValues: everything.map { ($0, "skipped") })
        expected["p1.jpg thumbnail"] = "done"
        XCTAssertEqual(try run(), expected)
        // A new size: every thumbnail made again, every import still skipped.
        try job("40x40")
        expected = Dictionary(uniqueKeysWithValues: everything.map { ($0, $0.hasSuffix("import") ? "skipped" : "done") })
        XCTAssertEqual(try run(), expected)
    }

    /// libvips starts at the first image a run makes (`Vips.started`): a rerun with every photo up to date loads none
    /// of its modules (ImageMagick, Poppler, libheif and the rest: a tenth of a no-op rerun of 10^4 photos), and a
    /// rerun with one thumbnail to make loads them. Seen as the dynamic loader reports it (`LD_DEBUG=files`).
    func testANoOpRerunStartsNoLibvipsAndARenderingOneDoes() throws {
        let modules = try FileManager.default.contentsOfDirectory(atPath: "/usr/lib").compactMap { folder in
            try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/" + folder).first { $0.hasPrefix("vips-modules-") }
        }
        try XCTSkipIf(modules.isEmpty, "this libvips has no loadable modules: nothing to see loaded")
        let folder = try TestSupport.temporaryFolder(self)
        for i in 0..<3 { try Fixture.jpeg(at: "\(folder)/photos/p\(i).jpg", width: 64 + i, height: 48, variant: i) }
        try TestSupport.write("version: 1\ncatalogue: album\nstages:\n  - import: {from: photos}\n  - thumbnail: {size: 32x32}\n",
                              to: "job.yml", in: folder)
        XCTAssertEqual(try TestSupport.album(["run", "job.yml"], in: folder).status, 0)
        let noOp = try TestSupport.album(["run", "job.yml", "--quiet"], in: folder, environment: ["LD_DEBUG": "files"])
        XCTAssertEqual(noOp.status, 0, noOp.stderr)
        XCTAssert(noOp.stderr.contains("libvips"), "the loader reported the libraries it loaded: \(noOp.stderr.prefix(500))")
        XCTAssertFalse(noOp.stderr.contains("vips-modules-"), "a no-op rerun loads no libvips module")
        try Fixture.jpeg(at: "\(folder)/photos/p3.jpg", width: 70, height: 48, variant: 3)
        let one = try TestSupport.album(["run", "job.yml", "--quiet"], in: folder, environment: ["LD_DEBUG": "files"])
        XCTAssertEqual(one.status, 0, one.stderr)
        XCTAssert(one.stderr.contains("vips-modules-"), "a rerun that makes a thumbnail starts libvips")
        XCTAssertEqual(try Tool.sqlite(folder + "/album/catalogue.db", "SELECT count(*) FROM renditions"), "4")
    }
}
