import Foundation
import XCTest
import Exif
@testable import Media

/// Issue 29, item 8: EXIF text is read as the field's stored bytes, whole, through libexif: never libvips' string
/// form (libexif's formatted value cut to a fixed buffer, plus " (text, ASCII, N components, M bytes)"). The fixtures
/// are written by exiftool and by Pillow, and album's answer is read through the built binary.
final class ExifCaptionTests: XCTestCase {
    /// Writes `tags` (exiftool's `-TAG=VALUE` arguments) into a new JPEG at `folder/src/name`.
    private func photo(_ name: String, in folder: String, variant: Int, _ tags: [String]) throws -> String {
        try Probe.require("exiftool", package: "libimage-exiftool-perl")
        let path = try Fixture.jpeg(at: "\(folder)/src/\(name)", variant: variant)
        let written = try Tool.run(["exiftool", "-q", "-overwrite_original"] + tags + [path])
        XCTAssertEqual(written.status, 0, "exiftool: \(written.stderr)")
        return path
    }

    /// `album import` of `folder/src`, then each photo's JSON from `album ls --json`, by file name.
    private func imported(_ folder: String) throws -> [String: [String: Any]] {
        let run = try TestSupport.album(["import", "-c", "album", "src"], in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        let ls = try TestSupport.album(["ls", "-c", "album", "--json"], in: folder)
        XCTAssertEqual(ls.status, 0, ls.stderr)
        let photos = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(ls.stdout.utf8)) as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: photos.map { (($0["path"] as? String).map { ($0 as NSString).lastPathComponent } ?? "", $0) })
    }

    func testLongCaptionsAndCameraNamesAreStoredWhole() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let short = String(String(repeating: "Grandma at the sea (1958), ", count: 6).prefix(149))
        let long = (1...60).map { "word\($0)" }.joined(separator: " ") + " (the end)"  // 300-odd characters
        let model = "EOS " + String(repeating: "Mark ", count: 60) + "X"
        try photo("short.jpg", in: folder, variant: 1, ["-ImageDescription=\(short)", "-Make=Canon", "-Model=Canon \(model)",
                                                         "-DateTimeOriginal=2008:04:20 19:12:06", "-OffsetTimeOriginal=+02:00"])
        try photo("long.jpg", in: folder, variant: 2, ["-ImageDescription=\(long)"])
        let photos = try imported(folder)
        XCTAssertEqual(short.count, 149)
        XCTAssertEqual(photos["short.jpg"]?["caption"] as? String, short, "149 characters, no libvips description")
        XCTAssertGreaterThan(long.count, 300)
        XCTAssertEqual(photos["long.jpg"]?["caption"] as? String, long, "over 250 characters, not cut")
        XCTAssertEqual(photos["short.jpg"]?["camera"] as? String, "Canon \(model)", "a 300-byte model, whole")
        XCTAssertEqual(photos["short.jpg"]?["taken"] as? String, "2008-04-20T19:12:06+02:00")
    }

    func testUserCommentAndXPCommentAreCaptionsWhenThereIsNoDescription() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let unicode = "Über den Wolken — " + String(repeating: "très haut, ", count: 25)
        try photo("unicode.jpg", in: folder, variant: 1, ["-UserComment=\(unicode)"])
        try photo("ascii.jpg", in: folder, variant: 2, ["-UserComment=" + String(repeating: "plain ascii comment ", count: 15)])
        try photo("xp.jpg", in: folder, variant: 3, ["-XPComment=Écrit sous Windows, " + String(repeating: "ligne ", count: 50)])
        try photo("both.jpg", in: folder, variant: 4, ["-ImageDescription=The description wins", "-UserComment=not this"])
        try photo("blank.jpg", in: folder, variant: 5, ["-UserComment=        "])
        let photos = try imported(folder)
        XCTAssertEqual(photos["unicode.jpg"]?["caption"] as? String, unicode.trimmingCharacters(in: .whitespaces))
        XCTAssertEqual(photos["ascii.jpg"]?["caption"] as? String,
                       String(repeating: "plain ascii comment ", count: 15).trimmingCharacters(in: .whitespaces))
        XCTAssertEqual(photos["xp.jpg"]?["caption"] as? String,
                       ("Écrit sous Windows, " + String(repeating: "ligne ", count: 50)).trimmingCharacters(in: .whitespaces))
        XCTAssertEqual(photos["both.jpg"]?["caption"] as? String, "The description wins")
        XCTAssert(photos["blank.jpg"]?["caption"] is NSNull, "a comment of spaces is no caption: \(photos["blank.jpg"] ?? [:])")
    }

    func testBytesThatAreNotUTF8StayVisible() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let path = try Fixture.jpeg(at: "\(folder)/src/latin1.jpg")
        // Pillow writes the description's bytes as given: Latin-1 "café — 1958" with a Windows-1252 dash, 200 bytes long.
        _ = try Independent.python("""
            import sys
            from PIL import Image
            im = Image.open(sys.argv[1]); exif = im.getexif()
            exif[0x010E] = b'caf\\xe9 \\x97 1958 ' + b'x' * 186
            im.save(sys.argv[1], exif=exif, quality=90)
            """, [path])
        let photos = try imported(folder)
        XCTAssertEqual(photos["latin1.jpg"]?["caption"] as? String, "café — 1958 " + String(repeating: "x", count: 186))
    }

    /// The text rules on their own, on the bytes a field holds.
    func testFieldBytesBecomeText() {
        func text(_ format: ExifField.Format, _ bytes: [UInt8], bigEndian: Bool = false) -> String? {
            ExifText.value(ExifField(format: format, bytes: bytes, bigEndian: bigEndian))
        }
        XCTAssertEqual(text(.ascii, Array("Canon".utf8) + [0]), "Canon")
        XCTAssertEqual(text(.ascii, Array("a (b) c".utf8) + [0, 0x41]), "a (b) c", "up to the NUL")
        XCTAssertEqual(text(.ascii, [0x63, 0x61, 0x66, 0xE9, 0]), "café", "Latin-1")
        XCTAssertEqual(text(.ascii, [0x81, 0x8D]), "\u{81}\u{8D}", "bytes Windows-1252 leaves undefined: ISO 8859-1")
        let unicode = Array("UNICODE".utf8) + [0]
        XCTAssertEqual(text(.undefined, unicode + [0x48, 0, 0x69, 0]), "Hi", "UTF-16 in a little-endian block")
        XCTAssertEqual(text(.undefined, unicode + [0x48, 0, 0x69, 0], bigEndian: true), "\u{4800}\u{6900}")
        XCTAssertEqual(text(.undefined, unicode + [0, 0x48, 0, 0x69], bigEndian: true), "Hi", "in a big-endian block")
        XCTAssertEqual(text(.undefined, unicode + [0xFF, 0xFE, 0x48, 0, 0x69, 0], bigEndian: true), "Hi", "a BOM decides")
        XCTAssertEqual(text(.undefined, Array("ASCII".utf8) + [0, 0, 0] + Array("ok".utf8) + [0, 0]), "ok")
        XCTAssertEqual(text(.undefined, [UInt8](repeating: 0, count: 8) + Array("undefined code".utf8)), "undefined code")
        XCTAssertNil(text(.undefined, Array("ASCII".utf8)), "shorter than its character code")
        XCTAssertEqual(text(.byte, [0x48, 0, 0x69, 0, 0, 0]), "Hi", "XPComment: UTF-16LE to its NUL")
        XCTAssertNil(text(.other, [1, 2, 3]))
        XCTAssertNil(text(.ascii, [0]))
    }
}
