import Foundation
import XCTest
import System
import Vips
@testable import Media
@testable import Stages

/// `{ext}` in `export.to` is the extension of the format the export writes; `{source-ext}` is the original's.
final class TemplateExtTests: XCTestCase {
    /// The format a file's bytes say, never its name.
    func format(of path: String, file: StaticString = #filePath, line: UInt = #line) throws -> ImageFormat? {
        guard FileManager.default.fileExists(atPath: path) else {
            XCTFail("no file at \(path)", file: file, line: line)
            return nil
        }
        return try? ImageFormat.sniff(FileBytes(path: path).withBytes { Array($0.prefix(32)) }).get()
    }

    /// Every file under `folder`, relative to it, sorted.
    func files(under folder: String) -> [String] {
        ((FileManager.default.enumerator(atPath: folder)?.allObjects as? [String]) ?? [])
            .filter { !FileManager.default.fileExists(atPath: folder + "/" + $0 + "/.") }.sorted()
    }

    func testAWebPThumbnailExportedToExtIsAWebPFileAndSourceExtIsTheOriginals() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try Fixture.jpeg(at: "\(folder)/photos/r001.jpg")
        let png = try Image.fromPixels(Fixture.quadrantPixels(width: 64, height: 40), width: 64, height: 40, bands: 3)
        try Data(png.encoded(as: .png, quality: 90, strip: true)).write(to: URL(fileURLWithPath: "\(folder)/photos/r002.png"))
        try TestSupport.write("""
            version: 1
            catalogue: album
            stages:
              - import: {from: photos}
              - thumbnail: {size: 32x32, format: webp}
              - export: {from: thumbnail, to: "thumbs/{name}.{ext}"}
              - export: {to: "full/{source-ext}/{name}.{ext}", format: png}
              - export: {to: "default/{name}.{ext}"}
              - export: {to: "literal/{name}-{source-ext}.png"}
            """, to: "job.yml", in: folder)
        let result = try TestSupport.album(["run", "job.yml"], in: folder)
        XCTAssertEqual(result.status, 0, result.stderr)

        // from: thumbnail with no format writes the thumbnail's format, named by {ext}: its file, copied.
        XCTAssertEqual(files(under: "\(folder)/thumbs"), ["r001.webp", "r002.webp"])
        for name in ["r001", "r002"] { XCTAssertEqual(try format(of: "\(folder)/thumbs/\(name).webp"), .webp) }
        let thumbnails = files(under: "\(folder)/album/thumbnails").filter { $0.hasSuffix(".webp") }
        let thumbnailHashes = Set(try thumbnails.map { try TestSupport.hash("\(folder)/album/thumbnails/\($0)") })
        XCTAssertTrue(thumbnailHashes.contains(try TestSupport.hash("\(folder)/thumbs/r001.webp")), "the thumbnail's own bytes")

        // format: png gives .png; {source-ext} is the original's extension as its name has it.
        XCTAssertEqual(files(under: "\(folder)/full"), ["jpg/r001.png", "png/r002.png"])
        XCTAssertEqual(try format(of: "\(folder)/full/jpg/r001.png"), .png)
        // No format and no literal extension: JPEG, as before, and now named .jpg even for a PNG original.
        XCTAssertEqual(files(under: "\(folder)/default"), ["r001.jpg", "r002.jpg"])
        XCTAssertEqual(try format(of: "\(folder)/default/r002.jpg"), .jpeg)
        // A literal extension still sets the format.
        XCTAssertEqual(files(under: "\(folder)/literal"), ["r001-jpg.png", "r002-png.png"])
        XCTAssertEqual(try format(of: "\(folder)/literal/r001-jpg.png"), .png)

        // The plan renders the templates as the run does: after the run, every export is up to date at its name (the counts are per stage kind).
        let again = try TestSupport.album(["plan", "job.yml", "--json"], in: folder)
        XCTAssertEqual(again.status, 0, again.stderr)
        let plan = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any])
        let stages = try XCTUnwrap(plan["stages"] as? [[String: Any]])
        XCTAssertEqual(stages.compactMap { $0["to_do"] as? Int }, [0, 0, 0], again.stdout)
        XCTAssertEqual(stages.filter { $0["stage"] as? String == "export" }.compactMap { $0["up_to_date"] as? Int }, [8], "four exports of two photos")
    }

    func testAnUnknownPlaceholderIsAJobFileErrorAtItsPlace() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try TestSupport.write("""
            version: 1
            stages:
              - export: {to: "out/{name}.{extension}"}
            """, to: "job.yml", in: folder)
        let result = try TestSupport.album(["check", "job.yml"], in: folder)
        XCTAssertEqual(result.status, 2)
        XCTAssert(result.stderr.contains("job.yml:3:18: error: export.to: unknown token {extension}; valid tokens are {name}, {ext}"),
                  result.stderr)
        XCTAssert(result.stderr.contains("{source-ext}"), result.stderr)
    }

    /// `{ext}` used to be the original's extension: a template using it records `ext: format`, so its parameters are
    /// not those its exports were made with before (they are re-exported once, and the old files are prune's), and a
    /// template without it keeps its parameters exactly.
    func testATemplateUsingExtRecordsWhatExtMeans() throws {
        let withExt = ExportStage(to: try PathTemplate("/o/{name}.{ext}", relativeTo: "/jobs"))
        XCTAssertEqual(withExt.parameters.text,
                       #"{"from":"image","to":"/o/{name}.{ext}","root":"/o","ext":"format","format":"jpeg","quality":90,"max-size":null,"metadata":"strip-gps","if-exists":"skip"}"#)
        let without = ExportStage(to: try PathTemplate("/o/{name}-{source-ext}.jpg", relativeTo: "/jobs"))
        XCTAssertEqual(without.parameters.text,
                       #"{"from":"image","to":"/o/{name}-{source-ext}.jpg","root":"/o","format":"jpeg","quality":90,"max-size":null,"metadata":"strip-gps","if-exists":"skip"}"#)
    }

    /// A rerun whose template now names other files, as `{ext}`'s new meaning does for a PNG original exported as
    /// JPEG (the old name made here with `{source-ext}`, which is what `{ext}` used to be): the new file is this
    /// run's export, the old one stays recorded under the earlier parameters, and `album prune` deletes it once no
    /// current run applies them.
    func testARerunWithAChangedExtGivesNewFilesAndPruneTakesTheOldOnes() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let png = try Image.fromPixels(Fixture.quadrantPixels(width: 64, height: 40), width: 64, height: 40, bands: 3)
        try FileManager.default.createDirectory(atPath: "\(folder)/photos", withIntermediateDirectories: true)
        try Data(png.encoded(as: .png, quality: 90, strip: true)).write(to: URL(fileURLWithPath: "\(folder)/photos/r002.png"))
        // What an earlier album's `{name}.{ext}` wrote for a PNG original: JPEG bytes named .png.
        try TestSupport.write("version: 1\ncatalogue: album\nstages:\n  - import: {from: photos}\n  - export: {to: \"out/{name}.{source-ext}\", format: jpeg}\n",
                              to: "job.yml", in: folder)
        XCTAssertEqual(try TestSupport.album(["run", "job.yml"], in: folder).status, 0)
        try TestSupport.write("version: 1\ncatalogue: album\nstages:\n  - import: {from: photos}\n  - export: {to: \"out/{name}.{ext}\", format: jpeg}\n",
                              to: "job.yml", in: folder)
        let rerun = try TestSupport.album(["run", "job.yml"], in: folder)
        XCTAssertEqual(rerun.status, 0, rerun.stderr)
        XCTAssertEqual(files(under: "\(folder)/out"), ["r002.jpg", "r002.png"])
        let prune = try TestSupport.album(["prune", "--catalogue", "album"], in: folder)
        XCTAssertEqual(prune.status, 0, prune.stderr + prune.stdout)
        XCTAssertEqual(files(under: "\(folder)/out"), ["r002.jpg"], prune.stdout + prune.stderr)
    }
}
