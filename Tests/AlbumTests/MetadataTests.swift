import XCTest
import System
import Vips
@testable import Core
@testable import Catalogue
@testable import Media
@testable import Stages

final class MetadataTests: XCTestCase {
    func testCaptureDatesBecomeISO8601OrNothing() {
        XCTAssertEqual(PhotoMetadata.isoDate(exif: "2008:04:20 19:12:06", offset: nil), "2008-04-20T19:12:06")
        XCTAssertEqual(PhotoMetadata.isoDate(exif: "2008:04:20 19:12:06", offset: "+02:00"), "2008-04-20T19:12:06+02:00")
        XCTAssertNil(PhotoMetadata.isoDate(exif: "0000:00:00 00:00:00", offset: nil))
        XCTAssertNil(PhotoMetadata.isoDate(exif: "2008:13:20 19:12:06", offset: nil))
        XCTAssertNil(PhotoMetadata.isoDate(exif: "    :  :     :  :  ", offset: nil))
    }

    func testMetadataIsReadFromARealJPEGThroughLibvips() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let path = try Fixture.jpeg(at: "\(folder)/a.jpg", orientation: 6, taken: "2008:04:20 19:12:06")
        let metadata = PhotoMetadata(image: try Image.open(FileBytes(path: path), sequential: true, failOn: .error))
        XCTAssertEqual(metadata.taken, "2008-04-20T19:12:06")
        XCTAssertEqual(metadata.orientation, 6)
        XCTAssertEqual([metadata.width, metadata.height], [320, 200], "the upright size")
        XCTAssertFalse(metadata.hasGPS)
    }

    func testDateRangesParseCheckAndMatch() throws {
        let april = try DateRange(parsing: "2008-04-01..2008-04-30")
        XCTAssertTrue(april.contains("2008-04-20T19:12:06"))
        XCTAssertFalse(april.contains("2008-05-01T00:00:00"))
        XCTAssertFalse(april.contains(nil), "undated photos never match a taken range")
        XCTAssertTrue(try DateRange(parsing: "2008-04-01..").contains("2030-01-01T00:00:00"))
        XCTAssertTrue(try DateRange(parsing: "..2008-04-01").contains("2008-04-01T23:59:59"))
        XCTAssertThrowsError(try DateRange(parsing: "2024-13-01")) { XCTAssert("\($0)".contains("month 13")) }
        XCTAssertThrowsError(try DateRange(parsing: "2023-02-29")) { XCTAssert("\($0)".contains("28 days")) }
        XCTAssertThrowsError(try DateRange(parsing: "2024-08-31..2024-06-01")) { XCTAssert("\($0)".contains("ends before")) }
    }

    func testFormatsAreSniffedFromBytesNotNames() {
        func sniff(_ bytes: [UInt8]) -> String {
            switch ImageFormat.sniff(bytes) {
            case .success(let f): f.rawValue
            case .failure(let e): e.description
            }
        }
        XCTAssertEqual(sniff([0xFF, 0xD8, 0xFF, 0xE0]), "jpeg")
        XCTAssertEqual(sniff([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), "png")
        XCTAssertEqual(sniff(Array("RIFF\0\0\0\0WEBPVP8 ".utf8)), "webp")
        XCTAssertEqual(sniff([0, 0, 0, 0x1C] + Array("ftypheic".utf8)), "heif")
        XCTAssertEqual(sniff([0, 0, 0, 0x1C] + Array("ftypavif".utf8)), "avif")
        XCTAssertEqual(sniff(Array("GIF89a".utf8)), "gif")
        XCTAssertEqual(sniff([]), "not an image: the file is empty (0 bytes)")
        XCTAssertEqual(sniff(Array("<!DOCTYPE html><html>".utf8)), "not an image: it is an HTML page")
        XCTAssertEqual(sniff(Array("hello, world\n".utf8)), "not an image: it looks like text")
        XCTAssertEqual(sniff(Array("%PDF-1.4".utf8)), "unsupported format: a PDF document")
    }

    func testPathTemplatesStayUnderTheirRoot() throws {
        let template = try PathTemplate("out/{taken:yyyy}/{name}.jpg", relativeTo: "/jobs")
        XCTAssertEqual(template.root, "/jobs/out")
        var photo = PhotoRecord(id: "abc", hash: "0123456789", path: "/p/../../etc/passwd.jpg", bytes: 1, mtimeNanoseconds: 0,
                                inode: 0, width: 1, height: 1, format: "jpeg", taken: nil, added: "2026-11-30T08:00:00Z",
                                caption: "../../x", filter: "none", filterRecipe: "[]", camera: nil, orientation: 1,
                                hasGPS: false, replaces: nil, storedPath: nil)
        XCTAssertEqual(try template.render(photo, formatExtension: "jpg"), "/jobs/out/undated/passwd.jpg")
        photo.path = "/p/..jpg"
        photo.taken = "2008-04-20T19:12:06"
        XCTAssertEqual(try template.render(photo, formatExtension: "jpg"), "/jobs/out/2008/_.jpg", "a name of dots cannot climb")
        photo.path = "/p/a\nb.jpg"
        XCTAssertEqual(try template.render(photo, formatExtension: "jpg"), "/jobs/out/2008/a_b.jpg", "control characters are neutralised")
        let captioned = try PathTemplate("x/{caption}-{hash8}.jpg", relativeTo: "/j")
        photo.caption = "A Day at the Sea! ../.."
        XCTAssertEqual(try captioned.render(photo, formatExtension: "jpg"), "/j/x/a-day-at-the-sea-01234567.jpg")
        XCTAssertThrowsError(try PathTemplate("out/{nmae}.jpg", relativeTo: "/")) { XCTAssert("\($0)".contains("unknown token {nmae}")) }
        XCTAssertThrowsError(try PathTemplate("out/fixed.jpg", relativeTo: "/")) { XCTAssert("\($0)".contains("no token")) }
        // A fixed `..` that climbs out is refused when the template is read (a job-file error), for every photo.
        XCTAssertThrowsError(try PathTemplate("out/{name}/../../../x{id}", relativeTo: "/j")) {
            XCTAssert("\($0)".contains("leads outside its folder /j/out"), "\($0)")
        }
    }

    func testJSONValuesAreEscapedAndOrdered() {
        let value = JSONValue.object([("b", .string("a\"b\\c\n\u{1}")), ("a", .array([.int(1), .double(2), .null, .bool(true)]))])
        XCTAssertEqual(value.text, #"{"b":"a\"b\\c\n\u0001","a":[1,2.0,null,true]}"#)
    }
}

final class CaptionTests: XCTestCase {
    func testCameraBoilerplateIsNotACaption() {
        for text in ["KONICA MINOLTA DIGITAL CAMERA", "OLYMPUS DIGITAL CAMERA", "SONY DSC", ""] {
            XCTAssertTrue(PhotoMetadata.isCameraBoilerplate(text), text)
        }
        XCTAssertFalse(PhotoMetadata.isCameraBoilerplate("Grandma's 90th, on the digital camera she hated"))
    }
}
