import Foundation
import System
@testable import Vips
import XCTest
@testable import Media

/// What a rendering reserves from the memory budget for its decoder: a progressive JPEG's coefficient buffer at its
/// chroma sampling, an interlaced PNG's whole image, nothing for a decoder that streams (docs/scheduler.md, "Memory
/// budget"). Each file is made here with libvips and read back through its header, as a run reads it.
final class DecoderMemoryTests: XCTestCase {
    let width = 640, height = 480

    override func setUpWithError() throws { try Vips.start() }

    func header(_ suffix: String, bands: Int = 3) throws -> Image {
        var pixels = Fixture.quadrantPixels(width: width, height: height)
        if bands == 1 { pixels = stride(from: 0, to: pixels.count, by: 3).map { pixels[$0] } }
        let bytes = try Image.fromPixels(pixels, width: width, height: height, bands: bands).encoded(suffix: suffix)
        let folder = try TestSupport.temporaryFolder(self)
        let path = folder + "/photo" + String(suffix.prefix { $0 != "[" })
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return try Image.open(FileBytes(path: path), sequential: true, failOn: .warning)
    }

    func testABaselineJPEGAndAPlainPNGStreamAndReserveNothing() throws {
        XCTAssertEqual(try header(".jpg[Q=95,strip]").decoderBufferBytes, 0)
        XCTAssertEqual(try header(".png").decoderBufferBytes, 0)
        XCTAssertEqual(LookRenderer.reservation(for: try header(".jpg[Q=80,strip]"), wholeImage: false), 0)
    }

    func testAProgressiveJPEGReservesTwoBytesForEveryCoefficientAtItsChromaSampling() throws {
        let pixels = width * height
        // Q >= 90: libvips keeps chroma at full resolution (4:4:4): three planes of coefficients.
        let full = try header(".jpg[Q=95,interlace,strip]")
        XCTAssertEqual(full.string("jpeg-chroma-subsample"), "4:4:4")
        XCTAssertEqual(full.decoderBufferBytes, 6 * pixels)
        // Below 90, chroma is halved both ways (4:2:0): one and a half planes, half the buffer.
        let halved = try header(".jpg[Q=80,interlace,strip]")
        XCTAssertEqual(halved.string("jpeg-chroma-subsample"), "4:2:0")
        XCTAssertEqual(halved.decoderBufferBytes, 3 * pixels)
        XCTAssertEqual(try header(".jpg[Q=80,interlace,strip]", bands: 1).decoderBufferBytes, 2 * pixels)
        // In the budget's unit, a pixel of 8-bit RGB (3 bytes): the 4:4:4 file counts twice its pixels, the 4:2:0 once.
        XCTAssertEqual(LookRenderer.reservation(for: full, wholeImage: false), 2 * pixels)
        XCTAssertEqual(LookRenderer.reservation(for: halved, wholeImage: false), pixels)
        // A rotation at full size holds the upright image besides.
        XCTAssertEqual(LookRenderer.reservation(for: halved, wholeImage: true), 2 * pixels)
    }

    /// libvips labels every subsampled JPEG "4:2:0"; a 4:2:2 file (chroma halved across only) holds a third more
    /// coefficients than that, read from its frame header. The file is Pillow's (libvips writes 4:4:4 or 4:2:0 only).
    func testAProgressive422JPEGIsCountedAtItsOwnSamplingNotLibvipsLabel() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let path = folder + "/422.jpg"
        let script = """
            import sys
            from PIL import Image
            Image.new("RGB", (\(width), \(height)), (200, 120, 40)).save(sys.argv[1], quality=85, subsampling=1, progressive=True)
            """
        let made = try Tool.run([Independent.python, "-c", script, path])
        XCTAssertEqual(made.status, 0, made.stderr)
        let header = try Image.open(FileBytes(path: path), sequential: true, failOn: .warning)
        XCTAssertEqual(header.string("jpeg-chroma-subsample"), "4:2:0", "libvips' label, which this test is about")
        // Luma in full, two chroma planes at half the width: four halves of a coefficient a pixel, 2 bytes each.
        XCTAssertEqual(header.decoderBufferBytes, 4 * width * height)
    }

    /// The frame header is found among other segments, and bytes that are no JPEG, or end before one, give none.
    func testTheFrameHeaderIsReadFromMarkersAndNothingElse() throws {
        func frame(_ bytes: [UInt8]) -> JPEGFrame? { bytes.withUnsafeBytes { JPEGFrame.parse($0) } }
        // SOI, an APP0 segment of 4 bytes, then SOF2 (progressive): 3 components, 2x1 luma, 1x1 chroma, 17x9 pixels.
        let sof: [UInt8] = [0xFF, 0xC2, 0x00, 0x11, 0x08, 0x00, 0x09, 0x00, 0x11, 0x03,
                            0x01, 0x21, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01]
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x04, 0x4A, 0x46] + sof
        let parsed = try XCTUnwrap(frame(jpeg))
        XCTAssertEqual(parsed, JPEGFrame(width: 17, height: 9, components: [.init(horizontal: 2, vertical: 1),
                                                                            .init(horizontal: 1, vertical: 1),
                                                                            .init(horizontal: 1, vertical: 1)],
                                          isProgressive: true))
        var baseline = jpeg
        baseline[9] = 0xC0
        XCTAssertEqual(frame(baseline)?.isProgressive, false, "SOF0: baseline")
        // Luma: 3x2 blocks (rounded up to whole MCUs of 2x1: 4x2); each chroma plane 2x2 blocks; 64 coefficients each.
        XCTAssertEqual(parsed.coefficientCount, (4 * 2 + 2 * 2 + 2 * 2) * 64)
        // A Huffman table (DHT, 0xC4, inside the SOF range) before the frame header is skipped, not read as one.
        let tableFirst: [UInt8] = [0xFF, 0xD8, 0xFF, 0xC4, 0x00, 0x05, 0x00, 0x01, 0x02] + sof
        XCTAssertEqual(frame(tableFirst), parsed)
        XCTAssertNil(frame([0x89, 0x50, 0x4E, 0x47]), "a PNG")
        XCTAssertNil(frame(Array(jpeg.prefix(12))), "cut inside the frame header")
        XCTAssertNil(frame([0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x02]), "a scan before any frame header")
        XCTAssertNil(frame([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x01]), "a segment length below its own 2 bytes")
    }

    func testAnInterlacedPNGReservesItsWholeDecodedImage() throws {
        XCTAssertEqual(try header(".png[interlace]").decoderBufferBytes, 3 * width * height)
    }
}
