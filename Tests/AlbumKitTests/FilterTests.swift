import XCTest
@testable import AlbumKit
import Vips

final class FilterTests: XCTestCase {
    /// Reference colours: primaries, greys, skin and sky tones, extremes.
    let colours: [[UInt8]] = [
        [0, 0, 0], [255, 255, 255], [255, 0, 0], [0, 255, 0], [0, 0, 255], [128, 128, 128], [255, 255, 0],
        [0, 255, 255], [255, 0, 255], [224, 172, 105], [135, 206, 235], [34, 139, 34], [12, 200, 77], [250, 5, 130],
    ]

    func testSepiaMatchesTheW3CMatrixWithinOneLevel() throws {
        _ = TestSupport.started
        for amount in [1.0, 0.85, 0.5, 0.0] {
            let sepia = Sepia(amount: amount)
            let image = try Image.fromPixels(colours.flatMap { $0 }, width: colours.count, height: 1, bands: 3)
            let result = try sepia.apply(to: image).pixels()
            let k = 1 - amount
            // W3C Filter Effects 1, "sepia" equivalent matrix, written out independently of Sepia.matrix.
            let m = [
                [0.393 + 0.607 * k, 0.769 - 0.769 * k, 0.189 - 0.189 * k],
                [0.349 - 0.349 * k, 0.686 + 0.314 * k, 0.168 - 0.168 * k],
                [0.272 - 0.272 * k, 0.534 - 0.534 * k, 0.131 + 0.869 * k],
            ]
            for (i, colour) in colours.enumerated() {
                for channel in 0..<3 {
                    let exact = (0..<3).reduce(0.0) { $0 + m[channel][$1] * Double(colour[$1]) }
                    let expected = Int(min(255, max(0, exact.rounded())))
                    let actual = Int(result[i * 3 + channel])
                    XCTAssertLessThanOrEqual(abs(actual - expected), 1, "sepia(\(amount)) of \(colour), channel \(channel): \(actual) vs \(expected)")
                }
            }
        }
    }

    func testSepiaKeepsAlpha() throws {
        _ = TestSupport.started
        let image = try Image.fromPixels([255, 0, 0, 77, 0, 0, 255, 200], width: 2, height: 1, bands: 4)
        let result = try Sepia(amount: 1).apply(to: image).pixels()
        XCTAssertEqual(result.count, 8)
        XCTAssertEqual(result[3], 77)
        XCTAssertEqual(result[7], 200)
    }

    func testNoirIsGreyWithAnSCurve() throws {
        _ = TestSupport.started
        let image = try Image.fromPixels(colours.flatMap { $0 }, width: colours.count, height: 1, bands: 3)
        let result = try Noir().apply(to: image).pixels()
        let curve = Noir().curve
        XCTAssertEqual(curve[0], 0)
        XCTAssertEqual(curve[255], 255)
        XCTAssertLessThan(curve[64], 64, "shadows deepen")
        XCTAssertGreaterThan(curve[192], 192, "highlights lift")
        for (i, colour) in colours.enumerated() {
            let y = 0.2126 * Double(colour[0]) + 0.7152 * Double(colour[1]) + 0.0722 * Double(colour[2])
            let expected = Int(curve[Int(min(255, y.rounded()))])
            XCTAssertEqual(result[i * 3], result[i * 3 + 1], "noir is grey")
            XCTAssertEqual(result[i * 3], result[i * 3 + 2], "noir is grey")
            XCTAssertLessThanOrEqual(abs(Int(result[i * 3]) - expected), 2, "noir of \(colour)")
        }
    }

    func testVividRaisesDullColoursMoreThanSaturatedOnesAndKeepsGrey() throws {
        _ = TestSupport.started
        let dull: [UInt8] = [140, 120, 110], saturated: [UInt8] = [230, 30, 30], grey: [UInt8] = [128, 128, 128]
        let image = try Image.fromPixels(dull + saturated + grey, width: 3, height: 1, bands: 3)
        let result = try Vivid(amount: 1).apply(to: image).pixels()
        func spread(_ p: ArraySlice<UInt8>) -> Double { Double(p.max()!) - Double(p.min()!) }
        let dullGain = spread(result[0..<3]) / spread(dull[0..<3])
        let saturatedGain = spread(result[3..<6]) / spread(saturated[0..<3])
        XCTAssertGreaterThan(dullGain, 1.2, "a dull colour gains saturation")
        XCTAssertGreaterThan(dullGain, saturatedGain, "dull colours gain more than saturated ones")
        XCTAssertLessThanOrEqual(spread(result[6..<9]), 2, "grey stays grey")
    }

    func testRecipeRoundTripsThroughItsCanonicalJSON() throws {
        let recipe = Recipe([Sepia(amount: 0.3), Noir(contrast: 0.5), Vivid(amount: 1.5)])
        let back = try Recipe(canonicalJSON: recipe.canonical.text)
        XCTAssertEqual(back.canonical.text, recipe.canonical.text)
        XCTAssertEqual(recipe.canonical.text, #"[{"sepia":{"amount":0.3}},{"noir":{"contrast":0.5}},{"vivid":{"amount":1.5}}]"#)
        XCTAssertThrowsError(try Recipe(canonicalJSON: #"[{"posterize":{}}]"#))
    }
}
