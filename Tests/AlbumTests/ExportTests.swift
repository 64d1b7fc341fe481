import Foundation
import XCTest
import Exif
import System
import Vips
@testable import Media

/// `export`: metadata policies, max-size, formats, if-exists and atomic writes, through the built binary.
final class ExportTests: XCTestCase {
    /// A JPEG with a capture date, a camera, GPS (EXIF IFD 3) and an XMP packet that also carries GPS.
    func photoWithGPS(at path: String) throws {
        try Fixture.jpeg(at: path, taken: "2008:04:20 19:12:06")
        let xmp = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\
            <rdf:Description xmlns:exif="http://ns.adobe.com/exif/1.0/" exif:GPSLatitude="51,30.0N"/></rdf:RDF></x:xmpmeta>
            """
        let image = try Image.open(FileBytes(path: path), sequential: false, failOn: .error)
            .setting("exif-ifd0-Make", to: "Canon")
            .setting("exif-ifd3-GPSLatitudeRef", to: "N")
            .setting("exif-ifd3-GPSLatitude", to: "51/1 30/1 0/1")
            .setting("exif-ifd3-GPSLongitudeRef", to: "W")
            .setting("exif-ifd3-GPSLongitude", to: "0/1 7/1 0/1")
            .setting("xmp-data", to: Array(xmp.utf8))
        try Data(image.encoded(as: .jpeg, quality: 90, strip: false)).write(to: URL(fileURLWithPath: path + ".tmp"))
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.moveItem(atPath: path + ".tmp", toPath: path)
    }

    /// exiftool's `-G -a` listing of a file, when exiftool is installed (`apt-get install libimage-exiftool-perl`).
    func exiftool(_ path: String) throws -> String? {
        guard let tool = ["/usr/bin/exiftool", "/usr/local/bin/exiftool"].first(where: FileManager.default.isExecutableFile) else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = ["-G", "-a", "-s", path]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    func run(_ stages: String, in folder: String, expect status: Int32 = 0, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        try TestSupport.write("version: 1\ncatalogue: album\nstages:\n  - import: {from: photos}\n" + stages, to: "job.yml", in: folder)
        let result = try TestSupport.album(["run", "job.yml"], in: folder)
        XCTAssertEqual(result.status, status, result.stderr, file: file, line: line)
        return result.stderr
    }

    func fields(_ path: String) throws -> Image {
        try Image.open(FileBytes(path: path), sequential: true, failOn: .error)
    }

    func testMetadataPolicies() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try photoWithGPS(at: "\(folder)/photos/gps.jpg")
        let original = try fields("\(folder)/photos/gps.jpg")
        XCTAssertTrue(original.has("exif-ifd3-GPSLatitude"), "the fixture has GPS: \(original.fieldNames)")
        XCTAssertTrue(original.has("xmp-data"))
        if let listing = try exiftool("\(folder)/photos/gps.jpg") {
            XCTAssert(listing.contains("[EXIF]") && listing.contains("GPSLatitude"), "exiftool sees the fixture's GPS:\n\(listing)")
        }
        _ = try run("""
              - export: {to: "out/strip-gps/{name}.jpg"}
              - export: {to: "out/strip/{name}.jpg", metadata: strip}
              - export: {to: "out/keep/{name}.jpg", metadata: keep}
              - export: {to: "out/keep-icc/{name}.jpg", metadata: keep-icc}
            """, in: folder)

        let stripGPS = try fields("\(folder)/out/strip-gps/gps.jpg")
        XCTAssertFalse(stripGPS.fieldNames.contains { $0.hasPrefix("exif-ifd3-") }, "strip-gps: no GPS: \(stripGPS.fieldNames)")
        XCTAssertFalse(stripGPS.has("xmp-data"), "strip-gps: no XMP (it can carry GPS)")
        let kept = ExifBlock(stripGPS.blob("exif-data") ?? [])
        XCTAssertEqual(kept[.dateTimeOriginal].flatMap(ExifText.value), "2008:04:20 19:12:06", "strip-gps keeps the rest")
        XCTAssertEqual(kept[.make].flatMap(ExifText.value), "Canon")
        XCTAssertFalse(PhotoMetadata(image: stripGPS).hasGPS)
        if let listing = try exiftool("\(folder)/out/strip-gps/gps.jpg") {
            XCTAssertFalse(listing.contains("GPS"), "exiftool finds no GPS at all:\n\(listing)")
            XCTAssert(listing.contains("DateTimeOriginal"), listing)
        }

        let strip = try fields("\(folder)/out/strip/gps.jpg")
        XCTAssertFalse(strip.has("exif-data") || strip.has("xmp-data") || strip.has("icc-profile-data"), "strip: \(strip.fieldNames)")

        let keep = try fields("\(folder)/out/keep/gps.jpg")
        XCTAssertTrue(keep.has("exif-ifd3-GPSLatitude") && keep.has("xmp-data"), "keep keeps GPS: \(keep.fieldNames)")
        XCTAssertEqual(keep.int("orientation") ?? 1, 1, "the pixels are upright, so the tag says so")

        // keep-icc: libvips 8.14 writes a minimal EXIF block whenever it does not strip, and strip also drops the
        // profile, so what is left beside the profile is that block: nothing from the photo.
        let keepICC = try fields("\(folder)/out/keep-icc/gps.jpg")
        XCTAssertFalse(keepICC.has("xmp-data") || keepICC.fieldNames.contains { $0.hasPrefix("exif-ifd3") }, "keep-icc: \(keepICC.fieldNames)")
        XCTAssertNil(keepICC.string("exif-ifd2-DateTimeOriginal"))
        XCTAssertNil(keepICC.string("exif-ifd0-Make"))
    }

    func testKeepICCKeepsTheProfileOfTheSRGBPixels() throws {
        let folder = try TestSupport.temporaryFolder(self)
        _ = TestSupport.started
        let p3 = try FormatFixture.quadrants().exported(toProfile: "p3").setting("exif-ifd0-Make", to: "Canon")
        try FormatFixture.write(p3.encoded(as: .jpeg, quality: 95, strip: false), to: "photos/p3.jpg", in: folder)
        _ = try run("""
              - export: {to: "out/{name}.jpg", metadata: keep-icc}
            """, in: folder)
        let out = try fields("\(folder)/out/p3.jpg")
        XCTAssertNil(out.string("exif-ifd0-Make"), "keep-icc drops the photo's EXIF: \(out.fieldNames)")
        let profile = try XCTUnwrap(out.blob("icc-profile-data"), "keep-icc keeps a profile")
        XCTAssertNotEqual(profile, p3.blob("icc-profile-data"), "the profile describes the exported sRGB pixels, not the P3 original")
        // Read through its profile, the export has the quadrant colours.
        let (_, _, means) = try Fixture.quadrants(of: "\(folder)/out/p3.jpg")
        XCTAssertEqual(means[0][0], 220, accuracy: 6)
        XCTAssertEqual(means[3][2], 200, accuracy: 6)
    }

    func testMaxSizeNeverUpscalesAndFormatsAreWhatTheySay() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try Fixture.jpeg(at: "\(folder)/photos/wide.jpg", width: 320, height: 200)
        try Fixture.jpeg(at: "\(folder)/photos/tall.jpg", width: 120, height: 300, orientation: 6)
        _ = try run("""
              - export: {to: "out/small/{name}.jpg", max-size: 100}
              - export: {to: "out/large/{name}.jpg", max-size: 5000}
              - export: {to: "out/png/{name}.png"}
              - export: {to: "out/webp/{name}.webp", format: webp, quality: 80}
              - export: {to: "out/avif/{name}.avif", format: avif}
              - export: {to: "out/tiff/{name}.tif", format: tiff, max-size: 150}
            """, in: folder)
        func look(_ path: String) throws -> (ImageFormat?, Int, Int) {
            let bytes = try FileBytes(path: "\(folder)/out/\(path)")
            let image = try Image.open(bytes, sequential: true, failOn: .error)
            return (try? ImageFormat.sniff(bytes.prefix(64)).get(), image.width, image.height)
        }
        XCTAssertEqual(try look("small/wide.jpg").1, 100)
        XCTAssertEqual(try look("small/wide.jpg").2, 63, accuracy: 1)
        XCTAssertEqual(try look("small/tall.jpg").2, 100, "the long edge of the upright image")
        XCTAssert(try look("large/wide.jpg") == (.jpeg, 320, 200), "never enlarged")
        XCTAssert(try look("large/tall.jpg") == (.jpeg, 120, 300), "upright")
        XCTAssert(try look("png/wide.png") == (.png, 320, 200), "format follows the extension when not given")
        XCTAssert(try look("webp/wide.webp") == (.webp, 320, 200))
        XCTAssert(try look("avif/wide.avif") == (.avif, 320, 200))
        XCTAssert(try look("tiff/tall.tif") == (.tiff, 60, 150))
        let (_, _, means) = try Fixture.quadrants(of: "\(folder)/out/avif/wide.avif")
        XCTAssertGreaterThan(means[0][0], 150, "AVIF export is upright and red at the top left")
    }

    func testAnExtensionThatContradictsTheFormatIsAJobFileError() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try TestSupport.write("""
            version: 1
            stages:
              - export: {to: "out/{name}.png", format: jpeg}
            """, to: "job.yml", in: folder)
        let result = try TestSupport.album(["check", "job.yml"], in: folder)
        XCTAssertEqual(result.status, 2)
        XCTAssert(result.stderr.contains("job.yml:3:44: error: export.format is jpeg but export.to ends in '.png'"), result.stderr)
    }

    func testIfExistsSkipOverwriteRenameAndNoTemporaryFilesAreLeft() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try Fixture.jpeg(at: "\(folder)/photos/a.jpg")
        try Fixture.jpeg(at: "\(folder)/photos/b.jpg", width: 200, height: 200)
        // A file album did not write sits where b's export goes.
        try TestSupport.write("someone else's file", to: "out/b.jpg", in: folder)
        let stderr = try run("""
              - export: {to: "out/{name}.jpg"}
            """, in: folder, expect: 1)
        XCTAssert(stderr.contains("out/b.jpg already exists and album did not export it for this photo"), stderr)
        XCTAssertEqual(try String(contentsOfFile: "\(folder)/out/b.jpg", encoding: .utf8), "someone else's file", "skip never replaces a stranger's file")
        let first = try TestSupport.hash("\(folder)/out/a.jpg")

        // Rename writes beside it; overwrite replaces it; a rerun of either leaves everything as it is.
        _ = try run("""
              - export: {to: "out/{name}.jpg", if-exists: rename}
            """, in: folder)
        XCTAssertEqual(try TestSupport.hash("\(folder)/out/a.jpg"), first, "a byte-identical file stays")
        XCTAssertTrue(FileManager.default.fileExists(atPath: "\(folder)/out/b-1.jpg"))
        XCTAssertEqual(try String(contentsOfFile: "\(folder)/out/b.jpg", encoding: .utf8), "someone else's file")
        _ = try run("""
              - export: {to: "out/{name}.jpg", if-exists: rename, quality: 80}
            """, in: folder)
        XCTAssertFalse(FileManager.default.fileExists(atPath: "\(folder)/out/b-2.jpg"), "rename replaces its own earlier b-1.jpg")
        XCTAssertFalse(FileManager.default.fileExists(atPath: "\(folder)/out/a-1.jpg"), "and its own a.jpg")
        _ = try run("""
              - export: {to: "out/{name}.jpg", if-exists: overwrite, quality: 50}
            """, in: folder)
        XCTAssertEqual(try Image.open(FileBytes(path: "\(folder)/out/b.jpg"), sequential: true, failOn: .error).width, 200, "overwritten")
        XCTAssertNotEqual(try TestSupport.hash("\(folder)/out/a.jpg"), first, "quality 50 replaced a's export")

        // The skip default replaces a file album itself exported for this photo (here: after a quality change).
        _ = try run("""
              - export: {to: "out/{name}.jpg", quality: 75}
            """, in: folder)
        let names = try FileManager.default.contentsOfDirectory(atPath: "\(folder)/out").sorted()
        XCTAssertEqual(names, ["a.jpg", "b-1.jpg", "b.jpg"], "no temporary files left behind, nothing else written")
        let everything = FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? []
        XCTAssertEqual(everything.filter { $0.contains(".album-") }, [], "no temporary file anywhere")
    }
}

extension ExportTests {
    func testStrippingRemovesMetadataInEveryFormat() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try photoWithGPS(at: "\(folder)/gps.jpg")
        let image = try Image.open(FileBytes(path: "\(folder)/gps.jpg"), sequential: false, failOn: .error)
        for format in OutputFormat.allCases {
            let bytes = try image.encoded(as: format, quality: 80, strip: true)
            let path = "\(folder)/stripped.\(format.fileExtension)"
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let out = try Image.open(FileBytes(path: path), sequential: true, failOn: .error)
            if format == .webp {
                // libvips 8.14's webpsave always writes a minimal EXIF block (orientation, resolution, pixel size),
                // even with strip and no EXIF fields left: nothing from the photo is in it.
                let left = out.fieldNames.filter(Image.isMetadata)
                XCTAssertFalse(left.contains { $0.hasPrefix("exif-ifd3") || $0.contains("DateTime") || $0.contains("Make") || !$0.hasPrefix("exif-") },
                               "webp: only libvips' minimal EXIF: \(left)")
            } else {
                XCTAssertEqual(out.fieldNames.filter(Image.isMetadata), [], "\(format): nothing left")
            }
            if let listing = try exiftool(path) { XCTAssertFalse(listing.contains("GPS"), "\(format):\n\(listing)") }
        }
    }
}
