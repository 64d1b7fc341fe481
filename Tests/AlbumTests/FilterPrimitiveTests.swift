import Foundation
import XCTest
import Vips
@testable import YAML
@testable import Media
@testable import Stages
@testable import JobFile

/// The custom presets' primitives: each against its documented maths, and every one chained with every other.
final class FilterPrimitiveTests: XCTestCase {
    /// Reference colours: primaries, greys, skin and sky tones, extremes.
    let colours: [[UInt8]] = [
        [0, 0, 0], [255, 255, 255], [255, 0, 0], [0, 255, 0], [0, 0, 255], [128, 128, 128], [255, 255, 0],
        [0, 255, 255], [255, 0, 255], [224, 172, 105], [135, 206, 235], [34, 139, 34], [12, 200, 77], [250, 5, 130],
    ]

    /// Applies `primitive` to the reference colours (one pixel each) and returns the results.
    func apply(_ primitive: any FilterPrimitive, to colours: [[UInt8]]) throws -> [[Int]] {
        _ = TestSupport.started
        let image = try Image.fromPixels(colours.flatMap { $0 }, width: colours.count, height: 1, bands: 3)
        let out = try primitive.apply(to: image)
        XCTAssertEqual(out.bands, 3, "\(type(of: primitive).name) keeps three bands")
        let pixels = try out.pixels()
        return (0..<colours.count).map { i in (0..<3).map { Int(pixels[i * 3 + $0]) } }
    }

    /// Checks results against `expected(colour, channel)` (before rounding and clipping) within `tolerance` levels.
    func check(_ primitive: any FilterPrimitive, tolerance: Int = 1, _ expected: ([Double], Int) -> Double) throws {
        let results = try apply(primitive, to: colours)
        for (i, colour) in colours.enumerated() {
            let c = colour.map(Double.init)
            for channel in 0..<3 {
                let want = Int(min(255, max(0, expected(c, channel).rounded())))
                XCTAssertLessThanOrEqual(abs(results[i][channel] - want), tolerance,
                                         "\(primitive.canonical.text) of \(colour), channel \(channel): \(results[i][channel]) vs \(want)")
            }
        }
    }

    func testGrayscaleAndSaturationMatchTheW3CMatricesWithinOneLevel() throws {
        for amount in [0.0, 0.3, 1.0] {
            let k = 1 - amount
            // W3C Filter Effects 1, "grayscale" equivalent matrix, written out independently of Grayscale.matrix.
            let m = [
                [0.2126 + 0.7874 * k, 0.7152 - 0.7152 * k, 0.0722 - 0.0722 * k],
                [0.2126 - 0.2126 * k, 0.7152 + 0.2848 * k, 0.0722 - 0.0722 * k],
                [0.2126 - 0.2126 * k, 0.7152 - 0.7152 * k, 0.0722 + 0.9278 * k],
            ]
            try check(Grayscale(amount: amount)) { c, ch in (0..<3).reduce(0) { $0 + m[ch][$1] * c[$1] } }
        }
        for s in [0.0, 0.5, 1.0, 2.5] {
            let m = [
                [0.213 + 0.787 * s, 0.715 - 0.715 * s, 0.072 - 0.072 * s],
                [0.213 - 0.213 * s, 0.715 + 0.285 * s, 0.072 - 0.072 * s],
                [0.213 - 0.213 * s, 0.715 - 0.715 * s, 0.072 + 0.928 * s],
            ]
            try check(Saturation(amount: s)) { c, ch in (0..<3).reduce(0) { $0 + m[ch][$1] * c[$1] } }
        }
    }

    func testBrightnessContrastAndGammaFollowTheirFormulas() throws {
        for a in [0.0, 0.5, 1.0, 1.7, 3.0] {
            try check(Brightness(amount: a)) { c, ch in a * c[ch] }
            try check(Contrast(amount: a)) { c, ch in a * (c[ch] - 127.5) + 127.5 }
        }
        for g in [0.1, 0.45, 1.0, 2.2, 10] {
            try check(Gamma(gamma: g)) { c, ch in 255 * pow(c[ch] / 255, 1 / g) }
        }
        let mid = try apply(Contrast(amount: 3), to: [[128, 128, 128], [127, 127, 127]])
        XCTAssertEqual(mid[0][0], 129, "128 is half a level above the middle: 3 × 0.5 + 127.5")
        XCTAssertEqual(mid[1][0], 126)
    }

    func testTintKeepsLightnessAndMovesTowardsTheColour() throws {
        let orange = try XCTUnwrap(RGBColour(hex: "#E07020"))
        XCTAssertEqual(orange.hex, "#e07020")
        XCTAssertNil(RGBColour(hex: "e07020"))
        XCTAssertNil(RGBColour(hex: "#e0702"))
        XCTAssertNil(RGBColour(hex: "#e0702g"))
        // Amount 0 changes nothing (beyond the Lab round trip).
        try check(Tint(colour: orange, amount: 0), tolerance: 1) { c, ch in c[ch] }
        // Amount 1 gives every pixel the tint's chroma: the tint's own colour stays itself, grey turns orange.
        let swatch = try Image.fromPixels(orange.components, width: 1, height: 1, bands: 3).converted(to: .lab).values()
        let results = try apply(Tint(colour: orange, amount: 1), to: [orange.components, [128, 128, 128]])
        XCTAssertEqual(results[0].map(Double.init), orange.components.map(Double.init), accuracy: 2)
        XCTAssertGreaterThan(results[1][0], results[1][1], "grey turns orange: more red than green")
        XCTAssertGreaterThan(results[1][1], results[1][2], "grey turns orange: more green than blue")
        // Lightness is kept, for colours whose result stays inside sRGB. (Full orange chroma on black, white or a
        // light sky blue is outside sRGB: libvips clips it, which moves the lightness.)
        let midtones: [[UInt8]] = [[128, 128, 128], [224, 172, 105], [135, 206, 235], [34, 139, 34], [90, 60, 80]]
        for amount in [0.1, 0.3] {
            let image = try Image.fromPixels(midtones.flatMap { $0 }, width: midtones.count, height: 1, bands: 3)
            let before = try image.converted(to: .lab).values()
            let after = try Tint(colour: orange, amount: amount).apply(to: image).converted(to: .lab).values()
            for i in 0..<midtones.count {
                XCTAssertEqual(after[i * 3], before[i * 3], accuracy: 1, "tint(\(amount)) keeps the lightness of \(midtones[i])")
            }
        }
        XCTAssertGreaterThan(swatch[1], 10, "orange has a positive a*")
    }

    func testVignetteDarkensTheCornersTheSameAtEverySize() throws {
        _ = TestSupport.started
        func corners(_ width: Int, _ height: Int) throws -> (centre: Double, corner: Double, edge: Double) {
            let image = try Image.fromPixels([UInt8](repeating: 200, count: width * height * 3), width: width, height: height, bands: 3)
            let out = try Vignette(amount: 0.6).apply(to: image).pixels()
            func at(_ x: Int, _ y: Int) -> Double { Double(out[(y * width + x) * 3]) }
            return (at(width / 2, height / 2), at(0, 0), at(width / 2, 0))
        }
        let small = try corners(240, 160), large = try corners(1200, 800)
        XCTAssertEqual(small.centre, 200, accuracy: 1, "the centre keeps its light")
        XCTAssertEqual(large.corner, 200 * (1 - 0.6), accuracy: 2, "the corner gets 1 − amount")
        // The middle of the top edge: r² = (h/2)² / ((w/2)² + (h/2)²) = 4/13 for 3:2.
        XCTAssertEqual(large.edge, 200 * (1 - 0.6 * 4 / 13), accuracy: 2)
        XCTAssertEqual(small.corner, large.corner, accuracy: 2, "thumbnail and full size agree")
        XCTAssertEqual(small.edge, large.edge, accuracy: 2, "thumbnail and full size agree")
    }

    func testGrainIsSeededTheSameInputAlwaysGivesTheSameOutput() throws {
        _ = TestSupport.started
        let image = try Image.fromPixels(Fixture.quadrantPixels(width: 300, height: 200), width: 300, height: 200, bands: 3)
        let a = try Grain(amount: 0.5, seed: 7).apply(to: image).pixels()
        let b = try Grain(amount: 0.5, seed: 7).apply(to: image).pixels()
        let c = try Grain(amount: 0.5, seed: 8).apply(to: image).pixels()
        XCTAssertEqual(a, b, "the same seed gives the same grain")
        XCTAssertNotEqual(a, c, "another seed gives other grain")
        XCTAssertEqual(try Grain(amount: 0, seed: 7).apply(to: image).pixels(), try image.pixels())
        // Monochrome grain of σ = 32·amount around the original values, on mid-grey where nothing clips.
        let grey = try Image.fromPixels([UInt8](repeating: 128, count: 200 * 100 * 3), width: 200, height: 100, bands: 3)
        let grainy = try Grain(amount: 0.5, seed: 7).apply(to: grey).pixels()
        var differences: [Double] = []
        var sameOnEveryBand = true
        for i in stride(from: 0, to: grainy.count, by: 3) {
            differences.append(Double(grainy[i]) - 128)
            sameOnEveryBand = sameOnEveryBand && grainy[i] == grainy[i + 1] && grainy[i] == grainy[i + 2]
        }
        XCTAssertTrue(sameOnEveryBand, "the same noise on every band")
        let mean = differences.reduce(0, +) / Double(differences.count)
        let sd = (differences.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(differences.count)).squareRoot()
        XCTAssertEqual(mean, 0, accuracy: 1)
        XCTAssertEqual(sd, 16, accuracy: 1.5)
    }

    func testSharpenRaisesEdgeContrastAndBlurIsRelativeToTheImage() throws {
        _ = TestSupport.started
        /// A vertical edge: dark left half, light right half.
        func edge(_ width: Int) throws -> Image {
            var pixels: [UInt8] = []
            for _ in 0..<8 { for x in 0..<width { pixels += [UInt8](repeating: x < width / 2 ? 60 : 190, count: 3) } }
            return try Image.fromPixels(pixels, width: width, height: 8, bands: 3)
        }
        let sharp = try Sharpen(sigma: 1).apply(to: try edge(64)).pixels()
        XCTAssertLessThan(sharp[(4 * 64 + 31) * 3], 60, "the dark side of the edge darkens")
        XCTAssertGreaterThan(sharp[(4 * 64 + 32) * 3], 190, "the light side of the edge lightens")
        XCTAssertEqual(Int(sharp[(4 * 64 + 5) * 3]), 60, accuracy: 1, "flat areas stay")
        // Blur 1 % of the shorter side: at two sizes the ramp spans the same fraction of the width.
        // Tall images, so the shorter side is the width: 200 and 800 pixels (σ 2 and 8 pixels).
        func ramp(_ width: Int) throws -> Double {
            var pixels: [UInt8] = []
            for _ in 0..<(width * 2) { for x in 0..<width { pixels += [UInt8](repeating: x < width / 2 ? 0 : 255, count: 3) } }
            let image = try Image.fromPixels(pixels, width: width, height: width * 2, bands: 3)
            let out = try Blur(sigma: 1).apply(to: image).pixels()
            let row = width  // a row in the middle
            let values = (0..<width).map { Double(out[(row * width + $0) * 3]) }
            return Double(values.filter { $0 > 25 && $0 < 230 }.count) / Double(width)
        }
        XCTAssertEqual(try ramp(200), try ramp(800), accuracy: 0.01, "the same softness at both sizes")
        XCTAssertGreaterThan(try ramp(800), 0.02)
        XCTAssertEqual(Blur(sigma: 0.5).pixels(width: 6000, height: 4000), 20)
    }

    func testEveryPrimitiveChainsWithEveryOtherAndKeepsAlpha() throws {
        _ = TestSupport.started
        let all = Recipe.registered.map { $0.make(FilterArguments()) }
        XCTAssertEqual(Set(all.map { type(of: $0).name }), Set(Recipe.primitives.keys), "every registered primitive by its own name")
        XCTAssertEqual(Recipe.primitives.count, Recipe.registered.count, "no two primitives share a name")
        var rgba: [UInt8] = []
        for (i, colour) in colours.enumerated() { rgba += colour + [UInt8(i * 18)] }
        // Each one after each other one: sharpen and tint need sRGB-labelled input, whatever came before.
        for first in all {
            for second in all {
                let image = try Image.fromPixels(rgba, width: colours.count, height: 1, bands: 4)
                let out = try Recipe([first, second]).apply(to: image)
                let name = "\(type(of: first).name) then \(type(of: second).name)"
                XCTAssertEqual([out.width, out.height, out.bands], [colours.count, 1, 4], name)
                let pixels = try out.pixels()
                XCTAssertEqual(stride(from: 3, to: pixels.count, by: 4).map { pixels[$0] }, (0..<colours.count).map { UInt8($0 * 18) }, "\(name) keeps alpha")
            }
        }
    }

    func testRecipesWithColoursAndSeedsRoundTripThroughTheirCanonicalJSON() throws {
        let recipe = Recipe([Tint(colour: RGBColour(red: 255, green: 136, blue: 0), amount: 0.25), Grain(amount: 0.2, seed: 42),
                             Blur(sigma: 0.1), Gamma(gamma: 2.2)])
        XCTAssertEqual(recipe.canonical.text,
                       ##"[{"tint":{"colour":"#ff8800","amount":0.25}},{"grain":{"amount":0.2,"seed":42}},{"blur":{"sigma":0.1}},{"gamma":{"gamma":2.2}}]"##)
        XCTAssertEqual(try Recipe(canonicalJSON: recipe.canonical.text).canonical.text, recipe.canonical.text)
    }

    func testPresetsInAJobFileAreCheckedWithTheirRanges() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let good = try TestSupport.write("""
            version: 1
            presets:
              warm: [{tint: "#e07020"}, {saturation: 1.4}, {contrast: {amount: 1.2}}, {vignette: 0.3}]
              film: [{grain: {amount: 0.2, seed: 9}}, {gamma: 1.1}, {sharpen: 0.8}, {blur: 0.1}, {grayscale: 1}, {brightness: 1.1}]
              plain: [{tint: {amount: 0.2}}, {grain: null}]
            stages:
              - filter: {preset: warm}
            """, to: "good.yml", in: folder)
        let job = try JobLoader.load(path: good)
        let filter = try XCTUnwrap(job.stages.first as? FilterStage)
        XCTAssertEqual(filter.preset.recipe.canonical.text,
                       ##"[{"tint":{"colour":"#e07020","amount":0.5}},{"saturation":{"amount":1.4}},{"contrast":{"amount":1.2}},{"vignette":{"amount":0.3}}]"##)

        let bad = try TestSupport.write("""
            version: 1
            presets:
              a: [{saturation: 3.5}, {gamma: 0}, {tint: "orange"}, {tint: {colour: "#e07020", amount: 2}}]
              b: [{grain: {seed: 1.5}}, {blur: {radius: 1}}, {posterize: 4}, {sharpen: 20}]
            stages:
              - filter: {preset: a}
            """, to: "bad.yml", in: folder)
        XCTAssertThrowsError(try JobLoader.load(path: bad)) { error in
            let text = (error as? DiagnosticList)?.rendered() ?? "\(error)"
            for expected in [
                "bad.yml:3:20: error: saturation's amount must be from 0.0 to 3.0, found 3.5",
                "bad.yml:3:34: error: gamma's gamma must be from 0.1 to 10.0, found 0.0",
                "bad.yml:3:45: error: tint's colour must be a colour written \"#rrggbb\"",
                "tint's amount must be from 0.0 to 1.0, found 2.0",
                "bad.yml:4:22: error: grain's seed must be",
                "unknown key 'radius'",
                "unknown filter 'posterize'",
                "sharpen's sigma must be from 0.3 to 10.0, found 20.0",
            ] {
                XCTAssert(text.contains(expected), "expected \(expected) in:\n\(text)")
            }
        }
        // And through the binary: exit status 2.
        let result = try TestSupport.album(["check", bad], in: folder)
        XCTAssertEqual(result.status, 2)
        XCTAssert(result.stderr.contains("bad.yml:3:20: error:"), result.stderr)
    }
}

private func XCTAssertEqual(_ a: [Double], _ b: [Double], accuracy: Double, _ message: String = "", file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(a.count, b.count, message, file: file, line: line)
    for (x, y) in zip(a, b) { XCTAssertEqual(x, y, accuracy: accuracy, message, file: file, line: line) }
}
