import Foundation
import System
import Vips
import XCTest
@testable import AlbumKit

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

    func testAnInterlacedPNGReservesItsWholeDecodedImage() throws {
        XCTAssertEqual(try header(".png[interlace]").decoderBufferBytes, 3 * width * height)
    }
}
