import Foundation
import System
import XCTest
@testable import Vips

/// A centre-cropped thumbnail resizes only the window its crop keeps (`CropFirstAxis`, issue 35). It must give
/// today's pixels, the whole image reduced by Lanczos3 then cut, within one level, on photo-like pictures (noise,
/// gradients, hard edges, fine texture) of every shape and orientation, and it must actually resize less.
final class CropFirstTests: XCTestCase {
    /// Stored size, the EXIF orientations tried, and the JPEG shrink-on-load (nil: LookRenderer's own choice).
    static let shapes: [(width: Int, height: Int, orientations: [Int], shrink: Int?)] = [
        (1800, 1200, Array(1...8), nil),  // 3:2
        (1600, 1200, [1, 6], nil),        // 4:3
        (1920, 1080, [1, 3, 8], nil),     // 16:9
        (2400, 600, [1, 6], nil),         // panorama 4:1
        (3000, 500, [1], nil),            // 6:1, a reduction by 2.08 after shrink-on-load
        (1000, 1500, [1, 6], nil),        // portrait
        (1537, 1023, [1, 2, 5, 7], nil),  // odd sizes
        (2000, 1333, [1, 4], 1),          // no shrink-on-load: a block average by 2 first (a PNG's case)
        (333, 250, [1], nil),             // tiny: a reduction by 1.04
        (250, 180, [1], nil),             // smaller than the box: enlarged, today's path
        (1201, 1201, [1], nil),           // square: nothing cut, today's path
    ]

    static let geometries: [ThumbnailGeometry] = [
        ThumbnailGeometry(width: 240, height: 240, crop: .centre, sizing: .both),
        ThumbnailGeometry(width: 150, height: 90, crop: .centre, sizing: .both),
        ThumbnailGeometry(width: 101, height: 101, crop: .centre, sizing: .both),
        ThumbnailGeometry(width: 64, height: 99, crop: .centre, sizing: .down),
        ThumbnailGeometry(width: 700, height: 700, crop: .centre, sizing: .down),
        ThumbnailGeometry(width: 240, height: 240, crop: .none, sizing: .both),
    ]

    /// A photo-like picture: two gradients, deterministic noise, hard-edged shapes and a fine texture.
    static func picture(width: Int, height: Int, seed: UInt32) -> [UInt8] {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        var state = seed
        for y in 0..<height {
            for x in 0..<width {
                state = state &* 1_664_525 &+ 1_013_904_223
                let noise = Int(state >> 27) - 16
                let edge = (x / 37 + y / 53) % 3 == 0 ? 90 : 0
                let disc = (x - width / 3) * (x - width / 3) + (y - height / 2) * (y - height / 2) < (height / 4) * (height / 4)
                let texture = ((x * 5 + y * 3) % 7 < 2) ? 40 : 0
                let i = (y * width + x) * 3
                pixels[i] = UInt8(clamping: x * 200 / width + noise + edge - texture + 20)
                pixels[i + 1] = UInt8(clamping: y * 200 / height + noise + (disc ? 100 : 0) + texture)
                pixels[i + 2] = UInt8(clamping: 230 - (x + y) * 150 / (width + height) - noise + ((x ^ y) & 16) * 3)
            }
        }
        return pixels
    }

    func testCropFirstGivesTodaysPixelsWithinOneLevel() throws {
        let folder = try TestSupport.temporaryFolder(self)
        var compared = 0, windowed = 0, differing = 0, values = 0
        for (n, shape) in Self.shapes.enumerated() {
            let pixels = Self.picture(width: shape.width, height: shape.height, seed: UInt32(n + 1))
            let plain = try Image.fromPixels(pixels, width: shape.width, height: shape.height, bands: 3)
            for orientation in shape.orientations {
                let image = orientation == 1 ? plain : try plain.setting("orientation", to: orientation)
                let path = "\(folder)/s\(n)o\(orientation).jpg"
                try Data(image.encoded(as: .jpeg, quality: 92, strip: false)).write(to: URL(fileURLWithPath: path))
                let bytes = try FileBytes(path: path)
                for geometry in Self.geometries {
                    let label = "\(shape.width)×\(shape.height), orientation \(orientation), \(geometry)"
                    let shrink = shape.shrink ?? Self.lookRendererShrink(shape.width, shape.height, orientation, geometry)
                    let today = try Image.open(bytes, sequential: true, failOn: .error, jpegShrink: shrink)
                        .thumbnail(geometry: geometry, splitting: true, cropFirst: false)
                    let opened = try Image.open(bytes, sequential: true, failOn: .error, jpegShrink: shrink)
                    let plan = ThumbnailPlan(geometry, storedWidth: opened.width, storedHeight: opened.height, orientation: orientation)
                    let cropFirst = try opened.thumbnail(geometry: geometry, splitting: true, cropFirst: true)
                    XCTAssertEqual([cropFirst.width, cropFirst.height], [today.width, today.height], label)
                    XCTAssertEqual(cropFirst.orientation, 1, label)
                    let (a, b) = (try cropFirst.pixels(), try today.pixels())
                    XCTAssertEqual(a.count, b.count, label)
                    let worst = zip(a, b).map { abs(Int($0) - Int($1)) }.max() ?? 0
                    XCTAssertLessThanOrEqual(worst, 1, label)
                    differing += zip(a, b).filter { $0 != $1 }.count
                    values += a.count
                    if let (h, v) = plan.reduceFactors(width: opened.width, height: opened.height), geometry.crop == .centre {
                        let outW = CropFirstAxis.roundUInt(Double(opened.width) / h), outH = CropFirstAxis.roundUInt(Double(opened.height) / v)
                        let kept = plan.centreCrop(storedWidth: outW, storedHeight: outH)
                        let x = CropFirstAxis.window(length: opened.width, shrink: h, keptStart: kept.left, kept: kept.width)
                        let y = CropFirstAxis.window(length: opened.height, shrink: v, keptStart: kept.top, kept: kept.height)
                        if x.inputLength < opened.width || y.inputLength < opened.height { windowed += 1 }
                    }
                    compared += 1
                }
            }
        }
        XCTAssertEqual(compared, Self.shapes.reduce(0) { $0 + $1.orientations.count } * Self.geometries.count)
        // Most crops of non-square photos resize a window: the new path is really taken.
        XCTAssertGreaterThan(windowed, compared / 2, "windows: \(windowed) of \(compared)")
        print("crop first: \(compared) thumbnails, \(windowed) through a window, \(differing) of \(values) values one level off")
    }

    /// A 3:2 photo in a 240 px square: the window keeps the crop's 240 columns and 6 on each side, of 360.
    func testTheWindowOfA3To2PhotoIsTheCropAndItsMargin() {
        let plan = ThumbnailPlan(ThumbnailGeometry(width: 240, height: 240, crop: .centre, sizing: .both),
                                 storedWidth: 900, storedHeight: 600, orientation: 1)
        guard let (h, v) = plan.reduceFactors(width: 900, height: 600) else { return XCTFail("a reduction") }
        XCTAssertEqual([h, v], [2.5, 2.5])
        let x = CropFirstAxis.window(length: 900, shrink: h, keptStart: 60, kept: 240)
        XCTAssertEqual(x, CropFirstAxis(inputStart: 135, inputLength: 630, outputStart: 54))
        XCTAssertEqual(CropFirstAxis.roundUInt(Double(x.inputLength) / h), 252)
        let y = CropFirstAxis.window(length: 600, shrink: v, keptStart: 0, kept: 240)
        XCTAssertEqual(y, CropFirstAxis(inputStart: 0, inputLength: 600, outputStart: 0), "nothing cut: the whole axis")
    }

    /// LookRenderer's shrink-on-load for a JPEG (vips_thumbnail's: leave at least a factor of two).
    static func lookRendererShrink(_ width: Int, _ height: Int, _ orientation: Int, _ geometry: ThumbnailGeometry) -> Int {
        let (w, h) = orientation >= 5 ? (height, width) : (width, height)
        let factor = geometry.crop == .none
            ? max(Double(w) / Double(geometry.width), Double(h) / Double(geometry.height))
            : min(Double(w) / Double(geometry.width), Double(h) / Double(geometry.height))
        return factor >= 16 ? 8 : factor >= 8 ? 4 : factor >= 4 ? 2 : 1
    }
}
