import Foundation
import System
import XCTest
@testable import Core
@testable import Media
@testable import Stages
@testable import Vips

/// libjpeg's own decode of a JPEG (`JPEGDecode`, issue 35) must give libvips' `jpegload` pixels exactly, with its
/// header fields, at every shrink, and its verdict on a damaged file must be `JPEGCheck`'s, in the same words.
/// The JPEGs are made here by cjpeg from photo-like pictures (`CropFirstTests.picture`): every chroma sampling,
/// baseline and progressive, with and without restart markers, odd sizes, greyscale.
final class JPEGDecodeTests: XCTestCase {
    /// cjpeg's options for each kind of file.
    static let kinds: [(name: String, options: [String])] = [
        ("444", ["-sample", "1x1"]),
        ("422", ["-sample", "2x1"]),
        ("420", ["-sample", "2x2"]),
        ("411", ["-sample", "4x1"]),
        ("440", ["-sample", "1x2"]),
        ("420-restart", ["-sample", "2x2", "-restart", "3"]),
        ("422-restart-blocks", ["-sample", "2x1", "-restart", "7B"]),
        ("420-progressive", ["-sample", "2x2", "-progressive"]),
        ("444-progressive-restart", ["-sample", "1x1", "-progressive", "-restart", "2"]),
        ("411-progressive", ["-sample", "4x1", "-progressive"]),
        ("grey", ["-grayscale"]),
        ("grey-progressive", ["-grayscale", "-progressive"]),
    ]
    static let sizes: [(Int, Int)] = [(1201, 803), (640, 480), (333, 250), (101, 106), (17, 22)]

    /// Writes the picture as a PPM and has cjpeg encode it with `options`.
    static func cjpeg(_ folder: String, _ name: String, width: Int, height: Int, seed: UInt32, options: [String]) throws -> String {
        let pixels = CropFirstTests.picture(width: width, height: height, seed: seed)
        let ppm = "\(folder)/\(name).ppm", jpeg = "\(folder)/\(name).jpg"
        try (Data("P6\n\(width) \(height)\n255\n".utf8) + Data(pixels)).write(to: URL(fileURLWithPath: ppm))
        let made = try Tool.run(["cjpeg", "-quality", "88"] + options + ["-outfile", jpeg, ppm])
        XCTAssertEqual(made.status, 0, "cjpeg \(options): \(made.stderr)")
        return jpeg
    }

    /// jpegload's image and libjpeg's own of `bytes` at `shrink`, both read whole; the verdict must be sound. The
    /// own decode takes its fields from jpegload's header at full size, as `LookRenderer` gives it.
    static func bothDecodes(_ bytes: FileBytes, shrink: Int) throws -> (jpegload: Image, own: Image?, ownPixels: [UInt8]) {
        let jpegload = try Image.open(bytes, sequential: true, failOn: .warning, jpegShrink: shrink)
        let header = try Image.open(bytes, sequential: true, failOn: .warning)
        guard let decode = try JPEGDecode.open(bytes, shrink: shrink, header: header) else { return (jpegload, nil, []) }
        let pixels = try decode.verified { try decode.image.pixels() }
        return (jpegload, decode.image, pixels)
    }

    func testTheOwnDecodeGivesJpegloadsPixelsAndFieldsAtEveryShrink() throws {
        try Probe.require("cjpeg", package: "libjpeg-turbo-progs")
        let folder = try TestSupport.temporaryFolder(self)
        var compared = 0, values = 0
        for (k, kind) in Self.kinds.enumerated() {
            for (s, (width, height)) in Self.sizes.enumerated() {
                let path = try Self.cjpeg(folder, "\(kind.name)-\(width)x\(height)", width: width, height: height,
                                          seed: UInt32(k * 10 + s + 1), options: kind.options)
                let bytes = try FileBytes(path: path)
                for shrink in [1, 2, 4, 8] {
                    let label = "\(kind.name) \(width)×\(height) at 1/\(shrink)"
                    let (jpegload, own, ownPixels) = try Self.bothDecodes(bytes, shrink: shrink)
                    guard let own else { XCTFail("\(label): the own decode declined a plain file"); continue }
                    XCTAssertEqual([own.width, own.height, own.bands], [jpegload.width, jpegload.height, jpegload.bands], label)
                    XCTAssertEqual(own.fieldNames, jpegload.fieldNames, label)
                    // "filename" is the libvips object's name ("temp-N" for a new image), not the file's header.
                    for field in jpegload.fieldNames where field != "filename" {
                        XCTAssertEqual(own.string(field), jpegload.string(field), "\(label): \(field)")
                    }
                    let expected = try jpegload.pixels()
                    XCTAssertEqual(ownPixels.count, expected.count, label)
                    let differing = zip(ownPixels, expected).filter { $0 != $1 }.count
                    XCTAssertEqual(differing, 0, "\(label): \(differing) values differ from jpegload's")
                    compared += 1
                    values += expected.count
                }
            }
        }
        XCTAssertEqual(compared, Self.kinds.count * Self.sizes.count * 4)
        print("JPEGDecodeTests: \(compared) decodes, \(values) values, all equal to jpegload's")
    }

    /// The header's metadata as jpegload attaches it: EXIF (with its orientation), XMP and an ICC profile.
    func testTheOwnDecodeCarriesTheHeadersMetadata() throws {
        try Probe.require("exiftool", package: "libimage-exiftool-perl")
        let folder = try TestSupport.temporaryFolder(self)
        let pixels = CropFirstTests.picture(width: 900, height: 600, seed: 7)
        let image = try Image.fromPixels(pixels, width: 900, height: 600, bands: 3).exported(toProfile: "p3").setting("orientation", to: 6)
        let path = "\(folder)/tagged.jpg"
        try Data(image.encoded(as: .jpeg, quality: 90, strip: false)).write(to: URL(fileURLWithPath: path))
        let tagged = try Tool.run(["exiftool", "-q", "-overwrite_original", "-XMP-dc:Title=decoded once", path])
        XCTAssertEqual(tagged.status, 0, tagged.stderr)
        let bytes = try FileBytes(path: path)
        for shrink in [1, 2, 4] {
            let (jpegload, own, ownPixels) = try Self.bothDecodes(bytes, shrink: shrink)
            let decoded = try XCTUnwrap(own)
            XCTAssertEqual(decoded.orientation, 6)
            for field in ["exif-data", "xmp-data", "icc-profile-data"] {
                XCTAssertNotNil(jpegload.blob(field), field)
                XCTAssertEqual(decoded.blob(field), jpegload.blob(field), "1/\(shrink): \(field)")
            }
            XCTAssertEqual(decoded.fieldNames, jpegload.fieldNames)
            XCTAssertEqual(ownPixels, try jpegload.pixels(), "1/\(shrink)")
        }
    }

    /// A damaged file: the own decode, read whole then finished, fails with `JPEGCheck`'s words (djpeg's first
    /// warning), or passes where the check passes. Damage anywhere: a header, a scan, the end.
    func testTheOwnDecodesVerdictIsTheChecksInItsWords() throws {
        try Probe.require("cjpeg", package: "libjpeg-turbo-progs")
        let folder = try TestSupport.temporaryFolder(self)
        var damaged = 0, cases = 0
        for (k, kind) in Self.kinds.enumerated() {
            let sound = try Data(contentsOf: URL(fileURLWithPath: try Self.cjpeg(folder, kind.name, width: 480, height: 360,
                                                                                 seed: UInt32(100 + k), options: kind.options)))
            let scan = sound.count / 3
            var variants: [(String, Data)] = [("sound", sound)]
            var flipped = sound
            for i in (2 * sound.count / 3)..<(2 * sound.count / 3 + 16) { flipped[i] ^= 0xFF }
            variants.append(("flipped at 2/3", flipped))
            var early = sound
            for i in scan..<(scan + 8) { early[i] ^= 0x55 }
            variants.append(("flipped at 1/3", early))
            variants.append(("cut at 3/4", sound.prefix(3 * sound.count / 4)))
            variants.append(("no end-of-image marker", sound.dropLast(2)))
            var tail = sound
            tail.replaceSubrange((tail.count - 2)..<tail.count, with: Data([0, 0, 0xFF, 0xD9]))
            variants.append(("2 bytes before the end marker", tail))
            var longTail = sound
            longTail.replaceSubrange((longTail.count - 2)..<longTail.count, with: Data(repeating: 0x55, count: 64) + Data([0xFF, 0xD9]))
            variants.append(("64 bytes before the end marker", longTail))
            for (n, (name, data)) in variants.enumerated() {
                let path = "\(folder)/\(kind.name)-\(n).jpg"
                try data.write(to: URL(fileURLWithPath: path))
                let bytes = try FileBytes(path: path)
                let check = Self.words { try JPEGCheck.check(bytes) }
                for shrink in [1, 2, 8] {
                    let own = Self.words {
                        let header = try Image.open(bytes, sequential: true, failOn: .none)
                        guard let decode = try JPEGDecode.open(bytes, shrink: shrink, header: header) else {
                            throw DecoderDamage(decoder: "test", words: "declined")
                        }
                        // Only the rows a pipeline would take: the first third, then the verdict.
                        let top = try decode.image.extractedArea(.init(left: 0, top: 0, width: decode.image.width,
                                                                                       height: max(1, decode.image.height / 3)))
                        _ = try decode.verified { try top.pixels() }
                    }
                    XCTAssertEqual(own, check, "\(kind.name), \(name), 1/\(shrink)")
                    cases += 1
                }
                if check != nil { damaged += 1 }
            }
        }
        XCTAssertGreaterThanOrEqual(damaged, Self.kinds.count * 3, "most variants are damaged to libjpeg")
        print("JPEGDecodeTests: \(cases) verdicts, \(damaged) damaged files, each the check's")
    }

    /// The words of the `DecoderDamage` `body` throws, nil when it throws none.
    static func words(_ body: () throws -> Void) -> String? {
        do { try body(); return nil } catch let damage as DecoderDamage { return damage.words } catch { return "\(error)" }
    }

    /// CMYK and arithmetic-coded files are left to jpegload and the check.
    func testFilesOutsideThePlainKindsAreDeclined() throws {
        try Probe.require("cjpeg", package: "libjpeg-turbo-progs")
        let folder = try TestSupport.temporaryFolder(self)
        for (name, options) in [("arithmetic", ["-arithmetic"]), ("rgb", ["-rgb"])] {
            let bytes = try FileBytes(path: try Self.cjpeg(folder, name, width: 200, height: 150, seed: 3, options: options))
            let header = try Image.open(bytes, sequential: true, failOn: .warning)
            XCTAssertNil(try JPEGDecode.open(bytes, shrink: 1, header: header), name)
        }
        let cmyk = try Image.fromPixels(CropFirstTests.picture(width: 200, height: 150, seed: 4), width: 200, height: 150, bands: 3)
            .exported(toProfile: "cmyk")
        let path = "\(folder)/cmyk.jpg"
        try Data(cmyk.encoded(as: .jpeg, quality: 90, strip: false)).write(to: URL(fileURLWithPath: path))
        let bytes = try FileBytes(path: path)
        let header = try Image.open(bytes, sequential: true, failOn: .warning)
        XCTAssertTrue(header.isCMYK)
        XCTAssertNil(try JPEGDecode.open(bytes, shrink: 1, header: header))
    }

    /// Through album's renderings (a thumbnail, the look bounded to 1000 px, and at full size): a damaged JPEG fails
    /// as `DamagedImage` with the check's words, whether it takes the one decode (baseline, progressive, grey) or is
    /// left to jpegload and `checkData` (arithmetic-coded); a sound one renders.
    func testRenderingsFailADamagedJPEGInTheChecksWordsOnBothRoutes() throws {
        try Probe.require("cjpeg", package: "libjpeg-turbo-progs")
        let folder = try TestSupport.temporaryFolder(self)
        let routes: [(String, [String])] = [("baseline", ["-sample", "2x2"]), ("progressive", ["-progressive"]),
                                            ("grey", ["-grayscale"]), ("arithmetic", ["-arithmetic"])]
        for (n, (name, options)) in routes.enumerated() {
            let sound = try Data(contentsOf: URL(fileURLWithPath: try Self.cjpeg(folder, name, width: 2400, height: 1600,
                                                                                 seed: UInt32(200 + n), options: options)))
            var flipped = sound
            for i in (2 * sound.count / 3)..<(2 * sound.count / 3 + 32) { flipped[i] ^= 0xFF }
            // 64 bytes before the end-of-image marker: more than libjpeg's bit buffer reads ahead, so it finds them.
            var tail = sound
            tail.replaceSubrange((tail.count - 2)..<tail.count, with: Data(repeating: 0x55, count: 64) + Data([0xFF, 0xD9]))
            for (variant, data) in [("sound", sound), ("flipped", flipped), ("cut", sound.prefix(3 * sound.count / 4)), ("tail", tail)] {
                let path = "\(folder)/\(name)-\(variant).jpg"
                try data.write(to: URL(fileURLWithPath: path))
                let bytes = try FileBytes(path: path)
                let check = Self.words { try JPEGCheck.check(bytes) }
                let renderings: [(String, () throws -> Void)] = [
                    ("thumbnail", { _ = try LookRenderer.renderThumbnail(of: bytes, recipe: .original, geometry: ThumbnailStage().geometry,
                                                                         format: .jpeg, quality: 70, failOn: .warning) }),
                    ("1000 px", { _ = try LookRenderer.renderFullSize(of: bytes, recipe: .original, maxSize: 1000, format: .jpeg, quality: 80,
                                                                      metadata: .strip, failOn: .warning) }),
                    ("full size", { _ = try LookRenderer.renderFullSize(of: bytes, recipe: .original, maxSize: nil, format: .jpeg, quality: 80,
                                                                        metadata: .strip, failOn: .warning) }),
                ]
                for (rendering, render) in renderings {
                    let label = "\(name), \(variant), \(rendering)"
                    do {
                        try render()
                        XCTAssertNil(check, "\(label): rendered, but the check says \(check ?? "")")
                    } catch let damaged as DamagedImage {
                        XCTAssertEqual(damaged.reason, check.map(LookRenderer.reported), label)
                    }
                }
                if variant == "sound" { XCTAssertNil(check, name) } else { XCTAssertNotNil(check, "\(name), \(variant)") }
            }
        }
    }
}
