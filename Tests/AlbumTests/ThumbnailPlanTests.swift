import Foundation
import System
import XCTest
@testable import Vips

/// album scales with `vips_thumbnail` and rotates and crops itself (`ThumbnailPlan`), so that no libvips build
/// computes pixels under `ProgramLock`. The split must be invisible: every orientation, every crop and a fit, from
/// a file's bytes and from an image already open, give exactly the pixels of libvips doing all of it in one call.
final class ThumbnailPlanTests: XCTestCase {
    static let geometries: [ThumbnailGeometry] = [
        ThumbnailGeometry(width: 240, height: 240, crop: .centre, sizing: .both),
        ThumbnailGeometry(width: 150, height: 90, crop: .centre, sizing: .both),
        // Odd excesses (152 - 101, and 349 - 99 on a turned photo): the half rounds down on the upright side only.
        ThumbnailGeometry(width: 101, height: 101, crop: .centre, sizing: .both),
        ThumbnailGeometry(width: 64, height: 99, crop: .centre, sizing: .both),
        ThumbnailGeometry(width: 90, height: 150, crop: .attention, sizing: .both),
        ThumbnailGeometry(width: 200, height: 100, crop: .entropy, sizing: .down),
        ThumbnailGeometry(width: 120, height: 120, crop: .none, sizing: .both),
        ThumbnailGeometry(width: 700, height: 700, crop: .centre, sizing: .down),
    ]

    func testSplitThumbnailsHaveLibvipsOwnPixels() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let (width, height) = (523, 347)
        // Structured and asymmetric, so that a crop offset or a turn by one pixel changes the result.
        var upright = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 3
                upright[i] = UInt8((x * 7 + y * 3) & 0xFF)
                upright[i + 1] = UInt8((x * x / 5 + y) & 0xFF)
                upright[i + 2] = UInt8((x ^ (y * 2)) & 0xFF)
            }
        }
        var compared = 0
        for orientation in 1...8 {
            let (pixels, sw, sh) = Fixture.stored(upright, width: width, height: height, orientation: orientation)
            var image = try Image.fromPixels(pixels, width: sw, height: sh, bands: 3)
            if orientation != 1 { image = try image.setting("orientation", to: orientation) }
            let path = "\(folder)/o\(orientation).jpg"
            try Data(image.encoded(as: .jpeg, quality: 92, strip: false)).write(to: URL(fileURLWithPath: path))
            let bytes = try FileBytes(path: path)
            for geometry in Self.geometries {
                let label = "orientation \(orientation), \(geometry)"
                let reference = try Image.thumbnail(bytes, header: nil, geometry: geometry, failOn: .error, toSRGB: false,
                                                    splitting: false)
                let split = try Image.thumbnail(bytes, header: nil, geometry: geometry, failOn: .error, toSRGB: false,
                                                splitting: true)
                XCTAssertEqual([split.width, split.height], [reference.width, reference.height], label)
                XCTAssertEqual(try split.pixels(), try reference.pixels(), "from bytes: \(label)")
                if geometry.crop != .none && geometry.width < 300 {
                    XCTAssertEqual([reference.width, reference.height], [geometry.width, geometry.height], label)
                }
                XCTAssertEqual(split.orientation, 1, "upright, the tag removed: \(label)")

                let open = try Image.open(bytes, sequential: true, failOn: .error, jpegShrink: 2)
                let openReference = try open.thumbnail(geometry: geometry, splitting: false, cropFirst: false)
                let reopened = try Image.open(bytes, sequential: true, failOn: .error, jpegShrink: 2)
                let openSplit = try reopened.thumbnail(geometry: geometry, splitting: true, cropFirst: false)
                XCTAssertEqual(try openSplit.pixels(), try openReference.pixels(), "from an open image: \(label)")
                compared += 2
            }
        }
        XCTAssertEqual(compared, 8 * Self.geometries.count * 2)
    }

    /// The plan asks libvips to fit a box unbounded on the side a crop would cut, in the stored orientation.
    func testTheBoxFitsAtTheCroppingScale() {
        let cover = ThumbnailGeometry(width: 240, height: 240, crop: .centre, sizing: .both)
        let landscape = ThumbnailPlan(cover, storedWidth: 6000, storedHeight: 4000, orientation: 1)
        XCTAssertEqual([landscape.box.width, landscape.box.height], [ThumbnailPlan.unbounded, 240])
        let wide = ThumbnailGeometry(width: 300, height: 100, crop: .centre, sizing: .both)
        // Stored 4000×6000 under orientation 6 shows 6000×4000. Filling 300×100 shrinks by 20 (6000 ÷ 300), and the
        // 100 px side is cropped; stored, the box is 100×300 and its 300 px height is the bound.
        let turned = ThumbnailPlan(wide, storedWidth: 4000, storedHeight: 6000, orientation: 6)
        XCTAssertEqual([turned.box.width, turned.box.height], [ThumbnailPlan.unbounded, 300])
        XCTAssertTrue(turned.finishesHere)
        let fit = ThumbnailPlan(ThumbnailGeometry(width: 240, height: 240, crop: .none, sizing: .both),
                                storedWidth: 6000, storedHeight: 4000, orientation: 1)
        XCTAssertFalse(fit.finishesHere, "an upright fit is libvips' alone: nothing is computed in its build")
    }
}
