import XCTest
import Vips

/// The import options and promises of docs/job-files.md, end to end through the built `album`: duplicates,
/// `include`/`exclude`/`limit`/`recursive`, `untrusted-loaders`, the metadata limit, a file whose size is not what
/// its stat said, and XMP captions. Catalogue rows are read with the sqlite3 shell (`Probe.rows`).
final class ImportOptionTests: XCTestCase {
    func run(_ importOptions: String, in folder: String, arguments: [String] = []) throws -> (status: Int32, stdout: String, stderr: String) {
        try TestSupport.write("""
            version: 1
            catalogue: album
            stages:
              - import: {\(importOptions)}
            """, to: "job.yml", in: folder)
        return try TestSupport.album(["run", "job.yml"] + arguments, in: folder)
    }

    /// The imported photos' paths relative to `folder`, sorted (the catalogue, `folder/album`, stores them as `../…`).
    func imported(in folder: String) throws -> [String] {
        try Probe.rows(folder + "/album", "SELECT path FROM photos").map {
            $0.hasPrefix("../") ? String($0.dropFirst(3)) : $0.replacingOccurrences(of: folder + "/", with: "")
        }.sorted()
    }

    /// The newest run's import step for `path`: its status and reason, "status: reason".
    func step(_ path: String, in folder: String) throws -> String {
        try Probe.rows(folder + "/album", """
            SELECT status || ': ' || coalesce(error, '') FROM steps WHERE stage = 'import' AND path = '\(path)'
            AND run = (SELECT max(id) FROM runs)
            """).first ?? "no step"
    }

    /// The second name is recorded as an alias of the photo (docs/catalogue.md, "Aliases"), a step done: it gets
    /// its own exports (AliasTests).
    func testTheSameBytesFoundTwiceAreOnePhotoAndTheSecondIsSkippedAsADuplicate() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let first = try Fixture.jpeg(at: "\(folder)/photos/a.jpg")
        try FileManager.default.copyItem(atPath: first, toPath: "\(folder)/photos/b.jpg")
        let result = try run("from: photos", in: folder, arguments: ["--log-format", "json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        // Two workers hash the two files at once: whichever is recorded first is the photo, the other its alias.
        let kept = try imported(in: folder)
        XCTAssert(kept == ["photos/a.jpg"] || kept == ["photos/b.jpg"], "one photo for the two files: \(kept)")
        let photo = "\(folder)/\(kept.first ?? "")", other = "\(folder)/photos/\(kept == ["photos/a.jpg"] ? "b" : "a").jpg"
        XCTAssertEqual(try step(other, in: folder),
                       "done: the same bytes as \(photo): recorded as another name of it, which gets its own exports")
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT hash FROM photos"), [try Tool.sha256(first)])
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT path FROM aliases"), [Probe.stored(other, in: folder + "/album")])
    }

    // MARK: - Which files

    /// photos/: a.jpg, B.JPG, c.png, d.webp, notes.txt, sub/e.jpg, sub/deeper/f.png, .hidden/g.jpg.
    func makeTree(in folder: String) throws {
        for (variant, name) in ["a.jpg", "B.JPG", "sub/e.jpg", ".hidden/g.jpg"].enumerated() {
            try Fixture.jpeg(at: "\(folder)/photos/\(name)", variant: variant)
        }
        let q = try FormatFixture.quadrants()
        try FormatFixture.write(try q.encoded(as: .png, quality: 100, strip: true), to: "c.png", in: folder + "/photos")
        try FormatFixture.write(try q.encoded(as: .webp, quality: 90, strip: true), to: "d.webp", in: folder + "/photos")
        try FormatFixture.write(try FormatFixture.flat([1, 2, 3]).encoded(as: .png, quality: 100, strip: true),
                                to: "sub/deeper/f.png", in: folder + "/photos")
        try TestSupport.write("not a photo\n", to: "photos/notes.txt", in: folder)
    }

    func testTheDefaultIncludeTakesImageExtensionsInAnyCaseAndSkipsHiddenFolders() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try makeTree(in: folder)
        XCTAssertEqual(try run("from: photos", in: folder).status, 0)
        XCTAssertEqual(try imported(in: folder), ["photos/B.JPG", "photos/a.jpg", "photos/c.png", "photos/d.webp",
                                                  "photos/sub/deeper/f.png", "photos/sub/e.jpg"])
    }

    func testIncludeAndExcludeAreFileNameGlobsInAnyCase() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try makeTree(in: folder)
        XCTAssertEqual(try run("from: photos, include: ['*.JPG', '*.txt'], exclude: ['b*', 'notes.*']", in: folder).status, 0)
        XCTAssertEqual(try imported(in: folder), ["photos/a.jpg", "photos/sub/e.jpg"])
    }

    func testRecursiveFalseImportsOnlyTheTopFolder() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try makeTree(in: folder)
        XCTAssertEqual(try run("from: photos, recursive: false", in: folder).status, 0)
        XCTAssertEqual(try imported(in: folder), ["photos/B.JPG", "photos/a.jpg", "photos/c.png", "photos/d.webp"])
    }

    func testLimitImportsAtMostThatManyFilesPerRun() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try makeTree(in: folder)
        XCTAssertEqual(try run("from: photos, limit: 2", in: folder).status, 0)
        XCTAssertEqual(try imported(in: folder).count, 2)
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT count(*) FROM steps WHERE stage = 'import'"), ["2"],
                       "the other files are not looked at")
    }

    // MARK: - untrusted-loaders

    /// A JPEG XL file, which libvips 8.14 reads only with `jxlload`, a loader it marks untrusted. Made by the `vips`
    /// command (libvips-tools), because this test process blocks untrusted operations, savers included.
    func makeJXL(in folder: String) throws -> String {
        try Probe.require("vips", package: "libvips-tools")
        let png = try FormatFixture.write(try FormatFixture.quadrants().encoded(as: .png, quality: 100, strip: true),
                                          to: "source.png", in: folder)
        try FileManager.default.createDirectory(atPath: folder + "/photos", withIntermediateDirectories: true)
        let made = try Tool.run(["vips", "copy", png, folder + "/photos/photo.jxl"])
        XCTAssertEqual(made.status, 0, made.stderr)
        return folder + "/photos/photo.jxl"
    }

    func testUntrustedLoadersAreBlockedByDefaultWithAReason() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let jxl = try makeJXL(in: folder)
        let result = try run("from: photos", in: folder)
        XCTAssertEqual(result.status, 1, "a failed photo: \(result.stderr)")
        XCTAssertEqual(try imported(in: folder), [])
        let step = try step(jxl, in: folder)
        XCTAssert(step.hasPrefix("failed: ") && step.contains("blocked"), step)
    }

    func testUntrustedLoadersAllowReadsWhatOnlyThoseLoadersRead() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let jxl = try makeJXL(in: folder)
        let result = try run("from: photos, untrusted-loaders: allow", in: folder)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try step(jxl, in: folder), "done:", "done, with no reason")
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT format || ' ' || width || 'x' || height FROM photos"), ["jxl 320x200"])
    }

    // MARK: - The metadata limit

    /// A little-endian TIFF, written by hand: 8×8 grey, uncompressed, with an XMP tag (700) of `xmpBytes` bytes.
    func tiff(xmpBytes: Int) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { u16(v & 0xFFFF) + u16(v >> 16) }
        let pixels = [UInt8](repeating: 128, count: 64)
        let entries = 10, ifdSize = 2 + 12 * entries + 4
        let pixelsAt = 8 + ifdSize, xmpAt = pixelsAt + pixels.count
        func entry(_ tag: Int, _ type: Int, _ count: Int, _ value: Int) -> [UInt8] {
            u16(tag) + u16(type) + u32(count) + (type == 3 && count == 1 ? u16(value) + [0, 0] : u32(value))
        }
        var out: [UInt8] = Array("II".utf8) + u16(42) + u32(8) + u16(entries)
        out += entry(256, 3, 1, 8) + entry(257, 3, 1, 8) + entry(258, 3, 1, 8) + entry(259, 3, 1, 1)  // size, 8 bits, none
        out += entry(262, 3, 1, 1) + entry(273, 4, 1, pixelsAt) + entry(277, 3, 1, 1) + entry(278, 3, 1, 8)  // grey, strip
        out += entry(279, 4, 1, pixels.count) + entry(700, 1, xmpBytes, xmpAt) + u32(0)  // strip bytes, XMP
        let packet = Array("<x:xmpmeta xmlns:x='adobe:ns:meta/'>".utf8)
        return out + pixels + packet + [UInt8](repeating: 0x20, count: xmpBytes - packet.count)
    }

    func testAMetadataBlobOver16MBFailsThePhotoAndOneUnderItIsImported() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try FormatFixture.write(tiff(xmpBytes: 17 << 20), to: "photos/over.tif", in: folder)   // 17 MiB
        try FormatFixture.write(tiff(xmpBytes: 15 << 20), to: "photos/under.tif", in: folder)  // 15 MiB
        let result = try run("from: photos", in: folder)
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertEqual(try imported(in: folder), ["photos/under.tif"])
        let step = try step("\(folder)/photos/over.tif", in: folder)
        XCTAssert(step.hasPrefix("failed: ") && step.contains("xmp-data") && step.contains("16 MB"), step)
    }

    // MARK: - A file that is not what its stat said

    /// The size a file's stat gives is not always the size a read gives: Linux's sysfs files all say 4096 bytes and
    /// read a few. That is what a file truncated between album's stat and its read looks like, and it is the one
    /// half of "changing while it is read" that can be made deterministic (the other half, a writer changing the
    /// modification time during the read, needs a second process at an exact moment: docs/job-files.md says so).
    func testAFileShorterThanItsStatFailsAsChangingWhileRead() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let sysfs = "/sys/devices/system/cpu/online"
        let facts = try Tool.run(["stat", "-L", "-c", "%s %F", sysfs]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let content = try Tool.run(["cat", sysfs]).stdout
        XCTAssertEqual(facts, "4096 regular file", "sysfs promises 4096 bytes")
        XCTAssertLessThan(content.utf8.count, 4096, "and reads fewer: \(content)")
        try FileManager.default.createDirectory(atPath: folder + "/photos", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder + "/photos/cpus.jpg", withDestinationPath: sysfs)
        let result = try run("from: photos, follow-symlinks: true", in: folder)
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertEqual(try step("\(folder)/photos/cpus.jpg", in: folder),
                       "failed: cannot read it: the file changed while it was being read (is it still being copied?)")
    }

    // MARK: - XMP captions

    func testAnXMPDescriptionIsTheCaption() throws {
        try Probe.require("exiftool", package: "libimage-exiftool-perl")
        let folder = try TestSupport.temporaryFolder(self)
        let photo = try Fixture.jpeg(at: "\(folder)/photos/harbour.jpg")
        let tagged = try Tool.run(["exiftool", "-q", "-overwrite_original", "-XMP-dc:Description=Boats & nets <at> dawn", photo])
        XCTAssertEqual(tagged.status, 0, tagged.stderr)
        let written = try Tool.run(["exiftool", "-s3", "-XMP-dc:Description", "-EXIF:ImageDescription", photo]).stdout
        XCTAssertEqual(written, "Boats & nets <at> dawn\n", "exiftool wrote XMP only, no EXIF description")

        let result = try run("from: photos", in: folder)
        XCTAssertEqual(result.status, 0, result.stderr)
        let list = try TestSupport.album(["ls", "--catalogue", "album", "--json"], in: folder)
        let photos = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(photos.first?["caption"] as? String, "Boats & nets <at> dawn")
    }
}
