import XCTest
@testable import AlbumKit
import Vips

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
        for orientation in [1, 3, 6, 8] {
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
}
