import XCTest
@testable import Core
@testable import Catalogue

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
              - filter: {preset: sepia, keep: full-size, select: {taken: 2008-04-01..2008-04-30}}
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

        // The same keys in a job: only the photo that failed last time is tried again. Its thumbnail failed because
        // its pixels do not decode, so it is damaged, and a damaged photo is retried only when asked
        // (docs/catalogue.md, "A photo's life: states").
        try TestSupport.write("""
            version: 1
            name: retry
            select: {failed: last-run}
            stages:
              - thumbnail: {size: 120x120, select: {missing: thumbnail}}
            """, to: "retry.yml", in: folder)
        let plan = try TestSupport.album(["plan", "retry.yml", "--retry-damaged"], in: folder)
        XCTAssertEqual(plan.status, 0, "album plan resolves the keys too: \(plan.stderr)")
        XCTAssertNotNil(plan.stdout.range(of: #"thumbnail +1 +0 +2"#, options: .regularExpression), plan.stdout)
        let retry = try TestSupport.album(["run", "retry.yml", "--retry-damaged"], in: folder)
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
        XCTAssert(bad.stderr.contains("--missing must be one of thumbnail, export, found 'thumbnails'; did you mean 'thumbnail'?"), bad.stderr)
        XCTAssertEqual(try TestSupport.album(["ls", "--failed", "yesterday"], in: folder).status, 2)
    }

    func testShowListsMetadataRenditionsAndEveryStepWithItsJobAndParameters() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try makeAlbum(in: folder)
        XCTAssertEqual(try TestSupport.album(["run", "import.yml"], in: folder).status, 0)
        XCTAssertEqual(try TestSupport.album(["run", "thumbs.yml"], in: folder).status, 1)
        let storm = try XCTUnwrap(try ls(["--filter", "sepia"], in: folder).first?["id"] as? String)

        let text = try TestSupport.album(["show", String(storm.prefix(8))], in: folder)
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssert(text.stdout.hasPrefix("photo    \(storm)\npath     \(folder)/photos/storm.jpg\n"), text.stdout)
        XCTAssert(text.stdout.contains("taken    2008-04-20 19:12:06\n"), text.stdout)
        XCTAssert(text.stdout.contains("filter   sepia [{\"sepia\":"), text.stdout)
        XCTAssert(text.stdout.contains("renditions (3)"), text.stdout)  // the sepia thumbnail, its before, the export
        // What changed the photo and what failed: the second run's import, skipped (unchanged), is no row.
        XCTAssert(text.stdout.contains("history (3 steps, oldest first)"), text.stdout)
        XCTAssertNotNil(text.stdout.range(of: #"\n  \d{4}-\d\d-\d\d \d\d:\d\d:\d\d [+-]\d\d:\d\d +2  thumbs   filter +done +[0-9.]+\n      parameters \{"preset":"sepia""#,
                                          options: .regularExpression), text.stdout)
        XCTAssert(text.stdout.contains("imports  import     done"), text.stdout)
        XCTAssertFalse(text.stdout.contains("unchanged since it was imported"), text.stdout)

        let json = try TestSupport.album(["show", storm, "--json"], in: folder)
        XCTAssertEqual(json.status, 0, json.stderr)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        XCTAssertEqual((object["photo"] as? [String: Any])?["id"] as? String, storm)
        let renditions = try XCTUnwrap(object["renditions"] as? [[String: Any]])
        XCTAssertEqual(Set(renditions.compactMap { $0["kind"] as? String }), ["filtered", "thumbnail"])
        let history = try XCTUnwrap(object["history"] as? [[String: Any]])
        XCTAssertEqual(history.map { "\($0["run"]!) \($0["job"]!) \($0["stage"]!) \($0["status"]!)" },
                       ["1 imports import done", "2 thumbs filter done", "2 thumbs thumbnail done"],
                       "oldest first")
        let thumbnail = try XCTUnwrap(history.last?["parameters"] as? [String: Any])
        XCTAssertEqual(thumbnail["size"] as? String, "120x120", "parameters are JSON, not a string")

        let truncated = try XCTUnwrap(try ls(["--failed", "last-run"], in: folder).first?["id"] as? String)
        let failed = try TestSupport.album(["show", truncated], in: folder)
        XCTAssert(failed.stdout.contains("error      damaged image data: the decoder reported \"Premature end of JPEG file\""), failed.stdout)
    }

    func testShowRefusesUnknownAndAmbiguousPrefixesWithExitTwo() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let catalogue = try Catalogue(folder: folder + "/album", create: true)
        for id in ["abc10000-0000-4000-8000-000000000000", "abc20000-0000-4000-8000-000000000000", "def00000-0000-4000-8000-000000000000"] {
            try catalogue.insert(PhotoRecord(id: id, hash: id, path: "/p/\(id).jpg", bytes: 1, mtimeNanoseconds: 1, inode: 1,
                                             width: 1, height: 1, format: "jpeg", taken: nil, added: Timestamp.now(),
                                             caption: nil, filter: "none", filterRecipe: "[]", camera: nil, orientation: 1,
                                             hasGPS: false, replaces: nil, storedPath: nil))
        }
        catalogue.close()
        let ambiguous = try TestSupport.album(["show", "abc"], in: folder)
        XCTAssertEqual(ambiguous.status, 2)
        XCTAssert(ambiguous.stderr.contains("'abc' is ambiguous: 2 photos have ids starting with it (abc10000…, abc20000…); give more of the id"), ambiguous.stderr)
        let unknown = try TestSupport.album(["show", "fff"], in: folder)
        XCTAssertEqual(unknown.status, 2)
        XCTAssert(unknown.stderr.contains("no photo in catalogue \(folder)/album has an id starting with 'fff'"), unknown.stderr)
        let unique = try TestSupport.album(["show", "ABC2", "--json"], in: folder)
        XCTAssertEqual(unique.status, 0, "a prefix in capitals is the same id: \(unique.stderr)")
        XCTAssert(unique.stdout.contains("\"history\": []"), unique.stdout)
        XCTAssertEqual(try TestSupport.album(["show"], in: folder).status, 2)
    }

    func testRunsListsEveryRunWithStatusCountsAndVersions() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try makeAlbum(in: folder)
        XCTAssertEqual(try TestSupport.album(["run", "import.yml"], in: folder).status, 0)
        XCTAssertEqual(try TestSupport.album(["run", "thumbs.yml"], in: folder).status, 1)

        let text = try TestSupport.album(["runs"], in: folder)
        XCTAssertEqual(text.status, 0, text.stderr)
        let lines = text.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 3)
        XCTAssert(lines[0].hasPrefix("run  job      status  started"), lines[0])
        XCTAssertNotNil(lines[1].range(of: #"^  2  thumbs   failed  \d{4}-\d\d-\d\d \d\d:\d\d:\d\d [+-]\d\d:\d\d  \d{4}-\d\d-\d\d \d\d:\d\d:\d\d [+-]\d\d:\d\d +3 +3 +1  - +0\.1\.0  8\.\d+"#, options: .regularExpression), lines[1])
        XCTAssertNotNil(lines[2].range(of: #"^  1  imports  ok      \d{4}-\d\d-\d\d \d\d:\d\d:\d\d [+-]\d\d:\d\d  \d{4}-\d\d-\d\d \d\d:\d\d:\d\d [+-]\d\d:\d\d +3 +0 +0  "#, options: .regularExpression), lines[2])

        let json = try TestSupport.album(["runs", "--json"], in: folder)
        let runs = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(runs.map { $0["job"] as? String }, ["thumbs", "imports"])
        let counts = try XCTUnwrap(runs[0]["counts"] as? [String: [String: Int]])
        XCTAssertEqual(counts["thumbnail"], ["done": 2, "skipped": 0, "failed": 1])
        XCTAssertEqual(counts["import"], ["done": 0, "skipped": 3, "failed": 0])
        for key in ["started", "finished", "album_version", "vips_version", "sqlite_version", "host", "job_hash"] {
            XCTAssert(runs[0][key] is String, "runs --json has \(key)")
        }
    }
}
