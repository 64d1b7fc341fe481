import Foundation
import XCTest
import Vips
@testable import Media

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

    /// noir(c) from docs/filters.md, written out here: Rec. 709 luminance on the 8-bit values, then the blend
    /// towards smoothstep, `round(255 · s)`. Within ±1 level: album rounds Y to a level before its 256-entry table,
    /// which moves Y by at most ½ level and the curve (slope at most 1 + c/2 = 1.5) by at most ¾ level, so the
    /// rounded result can differ from the exact formula's by at most 1. An S-curve of another strength cannot pass:
    /// 0.3 instead of 0.6 moves level 64 by 7 levels.
    func testNoirFollowsTheDocumentedFormulaWithinOneLevel() throws {
        _ = TestSupport.started
        // Every grey level (Y is then the level itself) and the reference colours.
        let inputs = colours + (0..<256).map { [UInt8($0), UInt8($0), UInt8($0)] }
        let image = try Image.fromPixels(inputs.flatMap { $0 }, width: inputs.count, height: 1, bands: 3)
        for c in [0.0, 0.3, 0.6, 1.0] {
            let result = try Noir(contrast: c).apply(to: image).pixels()
            for (i, colour) in inputs.enumerated() {
                let y = 0.2126 * Double(colour[0]) + 0.7152 * Double(colour[1]) + 0.0722 * Double(colour[2])
                let x = y / 255
                let s = x + c * (3 * x * x - 2 * x * x * x - x)
                let expected = Int(min(255, max(0, (255 * s).rounded())))
                for channel in 0..<3 {
                    XCTAssertEqual(Int(result[i * 3 + channel]), expected, accuracy: 1, "noir(\(c)) of \(colour), channel \(channel)")
                }
            }
        }
        // The documented anchors, at the default strength: black, mid-grey and white stay; shadows deepen.
        let anchors = try Noir().apply(to: try Image.fromPixels([0, 0, 0, 128, 128, 128, 255, 255, 255, 64, 64, 64], width: 4, height: 1, bands: 3)).pixels()
        XCTAssertEqual(anchors.map(Int.init), [0, 0, 0, 128, 128, 128, 255, 255, 255, 50, 50, 50])
    }

    /// vivid(a) from docs/filters.md, written out here with the CIE formulas (sRGB → linear → XYZ → Lab → LCh, D65,
    /// and back): C' = C · (1 + 0.6·a·e^(−C/40)), L and h kept. Within ±2 levels: libvips converts through
    /// single-precision floats and a table for the sRGB curve, so the round trip alone (a = 0) moves a colour by up
    /// to 1 level, plus the final rounding. A gain of 0.5 instead of 0.6, or a scale of 30 instead of 40, moves
    /// several of these colours by 3 to 25 levels.
    func testVividFollowsTheDocumentedFormulaWithinTwoLevels() throws {
        _ = TestSupport.started
        let inputs: [[UInt8]] = colours + [[140, 120, 110], [230, 30, 30], [90, 60, 80], [160, 150, 120], [100, 110, 140], [200, 190, 180]]
        let image = try Image.fromPixels(inputs.flatMap { $0 }, width: inputs.count, height: 1, bands: 3)
        for amount in [0.0, 0.5, 1.0, 2.0] {
            let result = try Vivid(amount: amount).apply(to: image).pixels()
            for (i, colour) in inputs.enumerated() {
                let expected = VividReference.apply(colour, amount: amount)
                for channel in 0..<3 {
                    XCTAssertEqual(Int(result[i * 3 + channel]), expected[channel], accuracy: 2,
                                   "vivid(\(amount)) of \(colour), channel \(channel): \(result[i * 3..<i * 3 + 3]) vs \(expected)")
                }
            }
        }
    }

    func testRecipeRoundTripsThroughItsCanonicalJSON() throws {
        let recipe = Recipe([Sepia(amount: 0.3), Noir(contrast: 0.5), Vivid(amount: 1.5)])
        let back = try Recipe(canonicalJSON: recipe.canonical.text)
        XCTAssertEqual(back.canonical.text, recipe.canonical.text)
        XCTAssertEqual(recipe.canonical.text, #"[{"sepia":{"amount":0.3}},{"noir":{"contrast":0.5}},{"vivid":{"amount":1.5}}]"#)
        XCTAssertThrowsError(try Recipe(canonicalJSON: #"[{"posterize":{}}]"#))
    }
}

/// The vibrance formula of docs/filters.md with the CIE conversions written out (IEC 61966-2-1 sRGB, the sRGB
/// primaries' XYZ matrix, CIE 1976 L*a*b* with the D65 white 95.047, 100, 108.883), independent of libvips.
enum VividReference {
    static let toXYZ = [[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]]
    static let white = [95.047, 100, 108.883]

    static func apply(_ rgb: [UInt8], amount: Double) -> [Int] {
        func linear(_ v: Double) -> Double { v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4) }
        func encoded(_ v: Double) -> Double { v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1 / 2.4) - 0.055 }
        let d = 6.0 / 29
        func f(_ t: Double) -> Double { t > d * d * d ? cbrt(t) : t / (3 * d * d) + 4.0 / 29 }
        func finv(_ t: Double) -> Double { t > d ? t * t * t : 3 * d * d * (t - 4.0 / 29) }
        let l = rgb.map { linear(Double($0) / 255) }
        let xyz = toXYZ.map { row in 100 * (0..<3).reduce(0) { $0 + row[$1] * l[$1] } }
        let fx = f(xyz[0] / white[0]), fy = f(xyz[1] / white[1]), fz = f(xyz[2] / white[2])
        let lightness = 116 * fy - 16, a = 500 * (fx - fy), b = 200 * (fy - fz)
        let chroma = (a * a + b * b).squareRoot(), hue = atan2(b, a)
        let boosted = chroma * (1 + 0.6 * amount * exp(-chroma / 40))
        let a2 = boosted * cos(hue), b2 = boosted * sin(hue)
        let gy = (lightness + 16) / 116
        let back = [white[0] * finv(gy + a2 / 500), white[1] * finv(gy), white[2] * finv(gy - b2 / 200)].map { $0 / 100 }
        let inverse = invert(toXYZ)
        return inverse.map { row in
            let v = (0..<3).reduce(0) { $0 + row[$1] * back[$1] }
            return Int(min(255, max(0, (255 * encoded(max(0, v))).rounded())))
        }
    }

    static func invert(_ m: [[Double]]) -> [[Double]] {
        let (a, b, c) = (m[0][0], m[0][1], m[0][2]), (d, e, f) = (m[1][0], m[1][1], m[1][2]), (g, h, i) = (m[2][0], m[2][1], m[2][2])
        let det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
        return [[(e * i - f * h) / det, (c * h - b * i) / det, (b * f - c * e) / det],
                [(f * g - d * i) / det, (a * i - c * g) / det, (c * d - a * f) / det],
                [(d * h - e * g) / det, (b * g - a * h) / det, (a * e - b * d) / det]]
    }
}
