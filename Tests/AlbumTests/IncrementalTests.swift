import XCTest

/// What a second run redoes: a changed thumbnail option or look makes a new thumbnail, and an edited original (new
/// bytes at the same path, caught by its size, modification time or inode) is read, imported and thumbnailed again.
/// Every expectation is read back with Python, djpeg or the sqlite3 shell (`Probe`), never through album.
final class IncrementalTests: XCTestCase {
    /// A job over `photos/` with one thumbnail stage; `contain` keeps the 320×200 picture's 8:5 shape.
    func job(thumbnail: String, preset: String = "none") -> String {
        """
        version: 1
        catalogue: album
        stages:
          - import: {from: photos}
          - filter: {preset: \(preset)}
          - thumbnail: {\(thumbnail)}
        """
    }

    func run(_ job: String, in folder: String) throws {
        try TestSupport.write(job, to: "job.yml", in: folder)
        let result = try TestSupport.album(["run", "job.yml"], in: folder)
        XCTAssertEqual(result.status, 0, result.stderr)
    }

    /// The status of the newest run's `stage` step for `path` (done, skipped or failed).
    func lastStep(_ stage: String, _ path: String, in folder: String) throws -> String {
        try Probe.rows(folder + "/album", """
            SELECT status FROM steps WHERE stage = '\(stage)' AND path = '\(path)'
            AND run = (SELECT max(id) FROM runs) ORDER BY id DESC LIMIT 1
            """).first ?? "none"
    }

    func testAChangedSizeQualityOrFormatMakesANewThumbnail() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let photo = try Fixture.jpeg(at: "\(folder)/photos/a.jpg")  // 320×200
        let album = folder + "/album"

        try run(job(thumbnail: "size: 120x120, fit: contain, quality: 90"), in: folder)
        let first = try Probe.newestThumbnail(album, original: photo)
        XCTAssertEqual(try Probe.header(first).width, 120)
        XCTAssertEqual(try Probe.header(first).height, 75, "320×200 inside 120×120 is 120×75")
        XCTAssertEqual(try Probe.firstQuantisationTable(first).sorted(), Probe.ijgLuminanceTable(quality: 90).sorted())

        // The same options again: nothing is redone.
        try run(job(thumbnail: "size: 120x120, fit: contain, quality: 90"), in: folder)
        XCTAssertEqual(try lastStep("thumbnail", photo, in: folder), "none", "up to date: a skipped step is no row")
        XCTAssertEqual(try Probe.rows(album, "SELECT json_extract(counts, '$.thumbnail.skipped') FROM runs ORDER BY id DESC LIMIT 1"),
                       ["1"], "the run's row counts it")

        try run(job(thumbnail: "size: 200x200, fit: contain, quality: 90"), in: folder)
        XCTAssertEqual(try lastStep("thumbnail", photo, in: folder), "done", "a new size is a new thumbnail")
        let resized = try Probe.header(Probe.newestThumbnail(album, original: photo))
        XCTAssertEqual([resized.width, resized.height], [200, 125], "320×200 inside 200×200")

        try run(job(thumbnail: "size: 200x200, fit: contain, quality: 20"), in: folder)
        XCTAssertEqual(try lastStep("thumbnail", photo, in: folder), "done", "a new quality is a new thumbnail")
        let requantised = try Probe.newestThumbnail(album, original: photo)
        XCTAssertEqual(try Probe.firstQuantisationTable(requantised).sorted(), Probe.ijgLuminanceTable(quality: 20).sorted(),
                       "the thumbnail is encoded at quality 20")

        try run(job(thumbnail: "size: 200x200, fit: contain, quality: 20, format: png"), in: folder)
        XCTAssertEqual(try lastStep("thumbnail", photo, in: folder), "done", "a new format is a new thumbnail")
        let png = try Probe.header(Probe.newestThumbnail(album, original: photo))
        XCTAssertEqual(png.format, "png")
        XCTAssertEqual([png.width, png.height], [200, 125])
    }

    func testANewLookMakesANewThumbnailInThatLook() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let photo = try Fixture.jpeg(at: "\(folder)/photos/a.jpg")  // red (220, 20, 20) on blue (20, 20, 200)
        let album = folder + "/album"

        try run(job(thumbnail: "size: 160x160", preset: "sepia"), in: folder)
        let sepia = try Probe.decodeJPEG(Probe.newestThumbnail(album, original: photo))
        // 320×200 covered into 160×160 is 256×160 cropped to x 48..<208: red fills x < 80, y < 80, blue the rest.
        // docs/filters.md's sepia matrix at intensity 0.85 (k = 0.15), worked out by hand:
        // red (220, 20, 20) → (122.8, 82.8, 65.2), blue (20, 20, 200) → (54.9, 49.2, 66.0).
        let red = sepia.mean(columns: 8..<72, rows: 8..<72), blue = sepia.mean(columns: 88..<152, rows: 88..<152)
        for (measured, expected) in zip(red + blue, [122.8, 82.8, 65.2, 54.9, 49.2, 66.0]) {
            XCTAssertEqual(measured, expected, accuracy: 5, "sepia's red \(red), blue \(blue)")
        }

        try run(job(thumbnail: "size: 160x160", preset: "noir"), in: folder)
        XCTAssertEqual(try lastStep("thumbnail", photo, in: folder), "done", "a new look is a new thumbnail")
        let noir = try Probe.decodeJPEG(Probe.newestThumbnail(album, original: photo))
        XCTAssertLessThan(noir.meanChroma, 4, "noir is grey: R = G = B up to JPEG's rounding, mean \(noir.mean)")

        // Back to the original look: the sepia run kept the original look's thumbnail with these options (the
        // report's "before"), so nothing is rendered, and that thumbnail is the photo's.
        try run(job(thumbnail: "size: 160x160", preset: "none"), in: folder)
        XCTAssertNotEqual(try lastStep("thumbnail", photo, in: folder), "done", "the original look's thumbnail is there already")
        let kept = try Probe.rows(album, """
            SELECT r.path FROM renditions r JOIN photos p ON p.id = r.photo WHERE r.kind = 'thumbnail' AND r.input_hash = p.hash
            """)
        XCTAssertEqual(kept.count, 1, "one thumbnail of the original look")
        let original = try Probe.decodeJPEG(album + "/" + XCTUnwrap(kept.first))
        XCTAssertGreaterThan(original.mean[2], 120, "back to the original: mostly blue, \(original.mean)")
    }

    // MARK: - An edited original

    /// A JPEG of the quadrant picture with a comment segment (COM) holding `note` right after SOI, so that notes of
    /// one length give files of one size and different bytes.
    func jpeg(note: String, width: Int = 320, height: Int = 200) throws -> [UInt8] {
        let scratch = try TestSupport.temporaryFolder(self) + "/scratch.jpg"
        let plain = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try Fixture.jpeg(at: scratch, width: width, height: height))))
        let text = Array(note.utf8)
        let length = text.count + 2
        return Array(plain[0..<2]) + [0xFF, 0xFE, UInt8(length >> 8), UInt8(length & 0xFF)] + text + Array(plain[2...])
    }

    /// Writes `bytes` into the existing file at `path`, keeping its inode (open with O_TRUNC, write, close).
    func overwrite(_ path: String, with bytes: [UInt8]) throws {
        let fd = open(path, O_WRONLY | O_TRUNC)
        XCTAssertGreaterThanOrEqual(fd, 0, "open \(path)")
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        XCTAssertEqual(written, bytes.count)
        XCTAssertEqual(close(fd), 0)
    }

    func stat(_ path: String) throws -> (size: Int, inode: Int, mtime: String) {
        let out = try Tool.run(["stat", "-c", "%s %i %.9Y", path]).stdout.split(separator: " ")
        return (Int(out[0])!, Int(out[1])!, String(out[2]).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Imports `a.jpg`, lets `edit` change it, runs again, and checks the edit was read: a second photo that
    /// replaces the first, with the new bytes' SHA-256 (from sha256sum), imported in the second run.
    /// - Returns: the test's folder.
    @discardableResult
    func assertReimported(after edit: (_ path: String, _ folder: String) throws -> Void,
                          file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let folder = try TestSupport.temporaryFolder(self)
        let path = "\(folder)/photos/a.jpg"
        try FileManager.default.createDirectory(atPath: "\(folder)/photos", withIntermediateDirectories: true)
        try Data(try jpeg(note: "version A")).write(to: URL(fileURLWithPath: path))
        try run(job(thumbnail: "size: 160x160, fit: contain"), in: folder)
        let firstID = try Probe.rows(folder + "/album", "SELECT id FROM photos").first ?? ""

        try edit(path, folder)
        try run(job(thumbnail: "size: 160x160, fit: contain"), in: folder)
        XCTAssertEqual(try lastStep("import", path, in: folder), "done", "the edited file is read again", file: file, line: line)
        let rows = try Probe.rows(folder + "/album", "SELECT hash || ' ' || coalesce(replaces, '-') FROM photos ORDER BY rowid")
        XCTAssertEqual(rows.count, 2, "the new bytes are a new photo: \(rows)", file: file, line: line)
        XCTAssertEqual(rows.last, "\(try Tool.sha256(path)) \(firstID)", "it has the new bytes' hash and replaces the first", file: file, line: line)
        return folder
    }

    func testAnOriginalRewrittenInPlaceWithNewPixelsIsReimportedAndRethumbnailed() throws {
        let folder = try assertReimported { path, _ in
            try overwrite(path, with: try jpeg(note: "version B", width: 200, height: 320))  // portrait now
            // The modification time is set apart by hand: no test waits for a clock to tick.
            XCTAssertEqual(try Tool.run(["touch", "-m", "-d", "2001-02-03 04:05:06", path]).status, 0)
        }
        // The newest thumbnail of the path is the new photo's, made from the new, portrait pixels.
        let thumbnail = try Probe.header(Probe.newestThumbnail(folder + "/album", original: folder + "/photos/a.jpg"))
        XCTAssertEqual([thumbnail.width, thumbnail.height], [100, 160], "200×320 inside 160×160; the old one was 160×100")
    }

    /// An edited original's export is its own: the rerun replaces the file at the template's path with the new
    /// version's pixels and exits 0 (it failed with "already exists and album did not export it for this photo"),
    /// and one export row, the new photo's, describes it.
    func testAnEditedOriginalReplacesItsOwnExport() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let path = "\(folder)/photos/a.jpg"
        try FileManager.default.createDirectory(atPath: "\(folder)/photos", withIntermediateDirectories: true)
        try Data(try jpeg(note: "version A")).write(to: URL(fileURLWithPath: path))
        let exporting = job(thumbnail: "size: 64x64") + "\n  - export: {from: image, to: \"out/{name}.jpg\"}\n"
        try run(exporting, in: folder)
        XCTAssertEqual(try Probe.header(folder + "/out/a.jpg").width, 320)

        try overwrite(path, with: try jpeg(note: "version B", width: 200, height: 320))
        XCTAssertEqual(try Tool.run(["touch", "-m", "-d", "2001-02-03 04:05:06", path]).status, 0)
        try run(exporting, in: folder)  // exit 0
        XCTAssertEqual(try lastStep("export", path, in: folder), "done")
        let header = try Probe.header(folder + "/out/a.jpg")
        XCTAssertEqual([header.width, header.height], [200, 320], "the export holds the new version's pixels")
        let newest = try Probe.rows(folder + "/album", "SELECT id FROM photos WHERE replaces IS NOT NULL").first ?? "?"
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT photo FROM renditions WHERE kind = 'export'"), [newest],
                       "one export row, the new version's: the old version's row went with its file")
        let plan = try TestSupport.album(["plan", "job.yml"], in: folder)
        XCTAssertEqual(plan.status, 0, plan.stderr)
        XCTAssertTrue(plan.stdout.contains("export           0"), plan.stdout)
    }

    func testAnOriginalChangedOnlyInModificationTimeAndBytesIsReimported() throws {
        // Same size, same inode, new bytes and a new modification time.
        try assertReimported { path, _ in
            let before = try stat(path)
            try overwrite(path, with: try jpeg(note: "version B"))
            XCTAssertEqual(try Tool.run(["touch", "-m", "-d", "2001-02-03 04:05:06", path]).status, 0)
            let after = try stat(path)
            XCTAssertEqual(after.size, before.size)
            XCTAssertEqual(after.inode, before.inode)
            XCTAssertNotEqual(after.mtime, before.mtime)
        }
    }

    func testAnOriginalReplacedByAnotherFileOfTheSameSizeAndTimeIsReimported() throws {
        // Same size, same modification time to the nanosecond, new bytes, and a new inode (renamed over it).
        try assertReimported { path, folder in
            let before = try stat(path)
            let sibling = folder + "/photos/a.new"
            try Data(try jpeg(note: "version B")).write(to: URL(fileURLWithPath: sibling))
            XCTAssertEqual(try Tool.run(["touch", "-r", path, sibling]).status, 0)
            XCTAssertEqual(rename(sibling, path), 0)
            let after = try stat(path)
            XCTAssertEqual(after.size, before.size)
            XCTAssertEqual(after.mtime, before.mtime)
            XCTAssertNotEqual(after.inode, before.inode)
        }
    }

    func testAnOriginalThatOnlyChangedSizeIsReimported() throws {
        // Same inode, same modification time to the nanosecond (restored from a reference), new bytes of a new size.
        try assertReimported { path, folder in
            let before = try stat(path)
            let reference = folder + "/reference"
            XCTAssertEqual(try Tool.run(["touch", "-r", path, reference]).status, 0)
            try overwrite(path, with: try jpeg(note: "version B, longer"))
            XCTAssertEqual(try Tool.run(["touch", "-r", reference, path]).status, 0)
            let after = try stat(path)
            XCTAssertNotEqual(after.size, before.size)
            XCTAssertEqual(after.mtime, before.mtime)
            XCTAssertEqual(after.inode, before.inode)
        }
    }
}
