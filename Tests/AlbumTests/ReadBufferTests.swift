import Foundation
import XCTest
import System
import Vips

/// A large file is read into a buffer reused from one file to the next (`ReadBuffers`): reuse must never change the
/// bytes of a file something still reads, nor give a file anything but its own bytes.
final class ReadBufferTests: XCTestCase {
    func testABufferIsReusedOnlyOnceNoImageDecodesFromItAndEveryReadIsItsFile() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let a = try noiseJPEG(at: folder + "/a.jpg", width: 640, height: 400, seed: 1)
        let b = try noiseJPEG(at: folder + "/b.jpg", width: 400, height: 300, seed: 2)
        let (bytesA, bytesB) = (Array(try Data(contentsOf: URL(fileURLWithPath: a))), Array(try Data(contentsOf: URL(fileURLWithPath: b))))
        XCTAssertGreaterThanOrEqual(bytesB.count, ReadBuffers.smallest, "both files are read into reused buffers")
        XCTAssertGreaterThan(bytesA.count, bytesB.count)
        let expectedA = try Image.open(FileBytes(bytes: bytesA, path: a), sequential: false, failOn: .error).pixels()

        // The image alone keeps a's bytes (libvips decodes lazily, from them): reading other files meanwhile must
        // take other buffers, so a's pixels are still a's.
        var image: Image? = try Image.open(FileBytes(path: a), sequential: true, failOn: .error)
        for _ in 0..<(ReadBuffers.kept + 2) {
            let other = try FileBytes(path: b)
            XCTAssertEqual(other.withBytes { Array($0) }, bytesB)
        }
        XCTAssertEqual(try image?.pixels(), expectedA, "a's bytes were not touched while its image could decode them")
        image = nil

        // Once nothing reads a's bytes, its buffer is read into again: the smaller file into the larger buffer,
        // then the larger one, each exactly its own bytes.
        let before = ReadBuffers.statistics
        for (path, expected) in [(b, bytesB), (a, bytesA), (b, bytesB), (a, bytesA)] {
            let read = try FileBytes(path: path)
            XCTAssertEqual(read.count, expected.count)
            XCTAssertEqual(read.withBytes { Array($0) }, expected, path)
            XCTAssertEqual(try read.sha256(), try FileBytes(bytes: expected, path: path).sha256())
        }
        XCTAssertEqual(ReadBuffers.statistics.reused - before.reused, 4, "every read reused a buffer")
        XCTAssertEqual(ReadBuffers.statistics.mapped, before.mapped, "and none was mapped afresh")

        // A small file stays malloc's, and its bytes are its own too.
        let small = folder + "/small.bin"
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: small))
        XCTAssertEqual(try FileBytes(path: small).withBytes { Array($0) }, [1, 2, 3])
    }

    /// A JPEG of random pixels (quality 95): large for its size, and every file's bytes differ.
    private func noiseJPEG(at path: String, width: Int, height: Int, seed: UInt64) throws -> String {
        var state = seed &* 0x9E37_79B9_7F4A_7C15
        let pixels = (0..<(width * height * 3)).map { _ -> UInt8 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        let bytes = try Image.fromPixels(pixels, width: width, height: height, bands: 3).encoded(as: .jpeg, quality: 95, strip: true)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }
}
