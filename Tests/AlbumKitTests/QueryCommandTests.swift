import XCTest
@testable import AlbumKit

/// `album ls`, `show` and `runs` through the built binary, on catalogues made by real runs.
final class QueryCommandTests: XCTestCase {
    /// Three photos, one of them truncated: it imports (its header is fine) but its thumbnail fails.
    func makeAlbum(in folder: String) throws {
        try Fixture.jpeg(at: "\(folder)/photos/storm.jpg", taken: "2008:04:20 19:12:06")
        try Fixture.jpeg(at: "\(folder)/photos/dune.jpg", taken: "2007:08:06 10:29:13")
        let good = try Data(contentsOf: URL(fileURLWithPath: try Fixture.jpeg(at: "\(folder)/whole.jpg")))
        try good.prefix(good.count / 2).write(to: URL(fileURLWithPath: "\(folder)/photos/truncated.jpg"))
        try TestSupport.write("version: 1\nname: imports\nstages:\n  - import: {from: photos}\n", to: "import.yml", in: folder)
        try TestSupport.write("""
            version: 1
            name: thumbs
            stages:
              - import: {from: photos}
              - filter: {preset: sepia, select: {taken: 2008-04-01..2008-04-30}}
              - thumbnail: {size: 120x120}
            """, to: "thumbs.yml", in: folder)
    }

    func ls(_ arguments: [String], in folder: String) throws -> [[String: Any]] {
        let result = try TestSupport.album(["ls", "--json"] + arguments, in: folder)
        XCTAssertEqual(result.status, 0, result.stderr)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
    }

    func names(_ photos: [[String: Any]]) -> Set<String> {
        Set(photos.map { (($0["path"] as? String ?? "") as NSString).lastPathComponent })
    }

    func testLsSelectsMissingThumbnailsAndLastRunFailuresInJobsToo() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try makeAlbum(in: folder)
        XCTAssertEqual(try TestSupport.album(["run", "import.yml"], in: folder).status, 0)
        XCTAssertEqual(names(try ls(["--missing", "thumbnail"], in: folder)), ["storm.jpg", "dune.jpg", "truncated.jpg"])
        XCTAssertEqual(names(try ls(["--failed", "last-run"], in: folder)), [])

        let thumbs = try TestSupport.album(["run", "thumbs.yml"], in: folder)
        XCTAssertEqual(thumbs.status, 1, "the truncated photo's thumbnail fails")
        XCTAssertEqual(names(try ls(["--missing", "thumbnail"], in: folder)), ["truncated.jpg"])
        XCTAssertEqual(names(try ls(["--failed", "last-run"], in: folder)), ["truncated.jpg"])
        XCTAssertEqual(names(try ls(["--failed", "last-run", "--missing", "export"], in: folder)), ["truncated.jpg"])
        XCTAssertEqual(names(try ls(["--missing", "export", "--filter", "sepia"], in: folder)), ["storm.jpg"])

        // The same keys in a job: only the photo that failed last time is tried again.
        try TestSupport.write("""
            version: 1
            name: retry
            select: {failed: last-run}
            stages:
              - thumbnail: {size: 120x120, select: {missing: thumbnail}}
            """, to: "retry.yml", in: folder)
        let retry = try TestSupport.album(["run", "retry.yml"], in: folder)
        XCTAssertEqual(retry.status, 1)
        let catalogue = try Catalogue(folder: folder + "/album", create: false)
        defer { catalogue.close() }
        let run = try XCTUnwrap(catalogue.runs().first)
        XCTAssertEqual(run.job, "retry")
        XCTAssertEqual(try catalogue.stepCounts(run: run.id), [.thumbnail: [.failed: 1]])
    }

    func testLsTextIsAnAlignedTableAndBadSelectorsAreUsageErrors() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try makeAlbum(in: folder)
        XCTAssertEqual(try TestSupport.album(["run", "thumbs.yml"], in: folder).status, 1)
        let result = try TestSupport.album(["ls"], in: folder)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "3 photos\n")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 4)
        XCTAssert(lines[0].hasPrefix("id "), lines[0])
        for column in ["taken", "added", "size", "format", "filter", "caption", "path"] {
            let offset = try XCTUnwrap(lines[0].range(of: column)).lowerBound.utf16Offset(in: lines[0])
            for line in lines.dropFirst() {
                let before = line.utf16.index(line.utf16.startIndex, offsetBy: offset - 2)
                XCTAssertEqual(String(line[before..<line.index(before, offsetBy: 2)]), "  ", "\(column) starts a column: \(line)")
            }
        }
        XCTAssert(lines.contains { $0.contains("sepia") && $0.hasSuffix("/photos/storm.jpg") }, result.stdout)
        XCTAssert(lines.allSatisfy { !$0.hasSuffix(" ") }, "no trailing spaces")

        let bad = try TestSupport.album(["ls", "--missing", "thumbnails"], in: folder)
        XCTAssertEqual(bad.status, 2)
        XCTAssert(bad.stderr.contains("--missing takes thumbnail or export, got 'thumbnails'"), bad.stderr)
        XCTAssertEqual(try TestSupport.album(["ls", "--failed", "yesterday"], in: folder).status, 2)
    }
}
