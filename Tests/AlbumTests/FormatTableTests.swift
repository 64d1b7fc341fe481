import Foundation
import XCTest
import System
import Vips
@testable import Media
@testable import Stages

/// The format table (`ImageFormat.registered`): each format one row, and import's extensions, the sniffing of
/// magic bytes, the decoder of originals and the extension of what album writes all read from it.
final class FormatTableTests: XCTestCase {
    /// The path ARCHITECTURE.md describes for a new format, taken by a row declared only here: a container whose
    /// image is an embedded PNG behind 8 magic bytes (as a RAW file carries a JPEG preview), with a decoder of its
    /// own. Its row alone gives the extensions import takes, the sniffing of its bytes, and their decoding.
    func testANewFormatGetsEverythingFromItsRow() throws {
        _ = TestSupport.started
        let row = ImageFormat(name: "framed", extensions: ["frm"], signatures: [.bytes(Framed.magic)], decoder: Framed(),
                              encoder: nil, metadata: [])
        let table = ImageFormat.registered + [row]

        // Import's default include: every row's extensions, any case.
        XCTAssertEqual(ImageFormat.extensions(of: table).suffix(2), ["m4v", "frm"])
        var stage = ImportStage()
        XCTAssertFalse(stage.accepts(name: "holiday.FRM"), "not registered: import does not take it")
        stage.include = ImageFormat.extensions(of: table).map { "*.\($0)" }
        XCTAssertTrue(stage.accepts(name: "holiday.FRM"))

        // Sniffed from its bytes, never from its name.
        let png = try FormatFixture.quadrants(width: 64, height: 40).encoded(as: .png, quality: 90, strip: true)
        let bytes = Framed.magic + png
        XCTAssertEqual(try ImageFormat.sniff(bytes, in: table).get(), row)
        XCTAssertEqual(ImageFormat.sniff(bytes), .failure(.notAnImage("its first bytes match no image format")), "not registered")
        XCTAssertNil(ImageFormat.written(fileExtension: "frm", in: table), "no encoder: album never writes it")

        // Decoded by its row's decoder: the embedded image, its pixels those of the picture.
        let image = try ImageFormat.open(FileBytes(bytes: bytes, path: "holiday.frm"), sequential: false, failOn: .error, in: table)
        XCTAssertEqual([image.width, image.height], [64, 40])
        let pixels = try image.srgb8(colourManaged: false).pixels()
        XCTAssertEqual(pixels, Fixture.quadrantPixels(width: 64, height: 40), "PNG is lossless: the picture's own pixels")
        XCTAssertThrowsError(try ImageFormat.open(FileBytes(bytes: bytes, path: "holiday.frm"), sequential: false, failOn: .error),
                             "without the row, libvips is asked, and knows no such bytes")
    }

    /// The table's own rules: one row per name, no extension in two rows, every format album writes has exactly one
    /// row (its extension is that row's first), and today's rows are the formats album has always read.
    func testEachFormatIsOneRow() throws {
        let rows = ImageFormat.registered
        XCTAssertEqual(rows.map(\.rawValue), ["jpeg", "png", "webp", "heif", "avif", "tiff", "gif", "jxl",
                                              "dng", "cr2", "cr3", "nef", "arw", "raf", "orf", "rw2", "pef", "srw", "mov", "mp4"])
        XCTAssertEqual(Set(rows.map(\.rawValue)).count, rows.count)
        let extensions = ImageFormat.extensions()
        XCTAssertEqual(extensions, ["jpg", "jpeg", "jpe", "png", "webp", "heic", "heif", "avif", "tif", "tiff", "gif", "jxl",
                                    "dng", "cr2", "cr3", "nef", "nrw", "arw", "srf", "sr2", "raf", "orf", "rw2", "rwl", "pef", "srw",
                                    "mov", "qt", "mp4", "m4v"])
        XCTAssertEqual(Set(extensions).count, extensions.count, "an extension names one format")
        XCTAssert(extensions.allSatisfy { $0 == $0.lowercased() })
        for format in OutputFormat.allCases {
            XCTAssertEqual(rows.filter { $0.encoder == format }.count, 1, "\(format)")
        }
        XCTAssertEqual(OutputFormat.allCases.map(\.fileExtension), ["jpg", "png", "webp", "avif", "tif"])
        XCTAssertEqual(ImageFormat.written(fileExtension: "JPE"), .jpeg)
        XCTAssertEqual(ImageFormat.written(fileExtension: "tiff"), .tiff)
        XCTAssertNil(ImageFormat.written(fileExtension: "gif"), "read, never written")
        XCTAssertEqual(ImportStage().include, extensions.map { "*.\($0)" })
        XCTAssert(rows.allSatisfy { $0.decoder != nil }, "album decodes every format it lists today")
    }
}

/// A decoder declared only here: the image behind `magic` is a PNG, handed to libvips' loaders.
private struct Framed: ImageDecoder {
    static let magic = Array("FRAMED\r\n".utf8)

    func open(_ bytes: FileBytes, sequential: Bool, failOn: FailOn, shrink: Int) throws -> Image {
        let inner = bytes.withBytes { Array($0.dropFirst(Framed.magic.count)) }
        return try VipsLoader().open(FileBytes(bytes: inner, path: bytes.path), sequential: sequential, failOn: failOn, shrink: 1)
    }
}
