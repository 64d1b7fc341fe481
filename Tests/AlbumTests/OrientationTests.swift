import XCTest
import System
import Vips
@testable import Media

/// An upside-down or mirrored thumbnail is the bug album exists to never have.
final class OrientationTests: XCTestCase {
    func testThumbnailsOfEveryOrientationAreUprightAndTheSameShape() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let geometry = ThumbnailGeometry(width: 160, height: 160, crop: .none, sizing: .both)
        for orientation in 1...8 {
            let path = try Fixture.jpeg(at: "\(folder)/o\(orientation).jpg", orientation: orientation)
            let header = try Image.open(FileBytes(path: path), sequential: true, failOn: .error)
            XCTAssertEqual(header.orientation, orientation, "the fixture carries orientation \(orientation)")
            let image = try LookRenderer.thumbnail(of: FileBytes(path: path), recipe: .original, geometry: geometry, failOn: .truncated)
            let out = "\(folder)/thumb\(orientation).png"
            try Data(LookRenderer.encode(image, format: .png, quality: 100, metadata: .strip)).write(to: URL(fileURLWithPath: out))
            let (width, height, means) = try Fixture.quadrants(of: out)
            XCTAssertEqual(width, 160, "orientation \(orientation): width")
            XCTAssertEqual(height, 100, "orientation \(orientation): height, same shape as orientation 1")
            XCTAssertGreaterThan(means[0][0], 150, "orientation \(orientation): top-left is red")
            XCTAssertLessThan(means[0][2], 80, "orientation \(orientation): top-left is red")
            for q in 1...3 {
                XCTAssertLessThan(means[q][0], 80, "orientation \(orientation): quadrant \(q) is blue")
                XCTAssertGreaterThan(means[q][2], 150, "orientation \(orientation): quadrant \(q) is blue")
            }
        }
    }

    func testFullSizeRenderingsAreUpright() throws {
        let folder = try TestSupport.temporaryFolder(self)
        for orientation in 1...8 {
            let path = try Fixture.jpeg(at: "\(folder)/o\(orientation).jpg", orientation: orientation)
            let image = try LookRenderer.fullSize(of: FileBytes(path: path), recipe: .original, maxSize: nil, failOn: .truncated)
            let out = "\(folder)/full\(orientation).png"
            try Data(LookRenderer.encode(image, format: .png, quality: 100, metadata: .strip)).write(to: URL(fileURLWithPath: out))
            let (width, height, means) = try Fixture.quadrants(of: out)
            XCTAssertEqual([width, height], [320, 200], "orientation \(orientation)")
            XCTAssertGreaterThan(means[0][0], 150, "orientation \(orientation): top-left is red")
            XCTAssertGreaterThan(means[3][2], 150, "orientation \(orientation): bottom-right is blue")
        }
    }

    /// Every orientation, 1 to 8, through the built binary at full size: the export decoded by djpeg (which ignores
    /// EXIF) is upright, 320×200 with red only at the top left, and carries no orientation that would turn it again
    /// (read by Pillow). The stored pixels are `Fixture.stored`, the EXIF 2.3 table written out in the tests. On a
    /// non-square picture with one red quadrant, only the right transform gives this size with red at the top left.
    func testExportsOfEveryOrientationAreUprightWhenDecodedByDjpeg() throws {
        let folder = try TestSupport.temporaryFolder(self)
        for orientation in 1...8 {
            try Fixture.jpeg(at: "\(folder)/photos/o\(orientation).jpg", orientation: orientation, quality: 95)
        }
        try TestSupport.write("""
            version: 1
            stages:
              - import: {from: photos}
              - export: {from: image, to: "out/{name}.jpg", quality: 95}
            """, to: "job.yml", in: folder)
        let result = try TestSupport.album(["run", "job.yml"], in: folder)
        XCTAssertEqual(result.status, 0, result.stderr)
        let exported = (1...8).map { "\(folder)/out/o\($0).jpg" }
        let tags = try Independent.python("""
            import sys
            from PIL import Image
            for path in sys.argv[1:]:
                print(Image.open(path).getexif().get(0x0112, 1))
            """, exported).split(separator: "\n").map(String.init)
        for orientation in 1...8 {
            let decoded = try Independent.djpeg(exported[orientation - 1])
            XCTAssertEqual(decoded.status, 0, "orientation \(orientation): \(decoded.messages)")
            XCTAssertEqual([decoded.width, decoded.height], [320, 200], "orientation \(orientation): upright size")
            let means = decoded.quadrantMeans
            XCTAssertGreaterThan(means[0][0], 190, "orientation \(orientation): top-left is red: \(means)")
            XCTAssertLessThan(means[0][2], 50, "orientation \(orientation): top-left is red: \(means)")
            for q in 1...3 {
                XCTAssertLessThan(means[q][0], 50, "orientation \(orientation): quadrant \(q) is blue: \(means)")
                XCTAssertGreaterThan(means[q][2], 170, "orientation \(orientation): quadrant \(q) is blue: \(means)")
            }
            XCTAssertEqual(tags.count > orientation - 1 ? tags[orientation - 1] : nil, "1", "orientation \(orientation): the export is not turned again")
        }
    }
}
