import Foundation
import XCTest
import System
import Vips
@testable import Catalogue
@testable import Media
@testable import Stages
@testable import Report

/// The report's previews come from the runs' renditions where one fits, and their pixels are the ones the original
/// gives: checked through the built binary, by deleting and changing rendition files and comparing the previews
/// the page inlines.
final class ReportPreviewTests: XCTestCase {
    /// A 480×320 photo stored on its side (EXIF orientation 6): gradients across and down, a red quadrant top left,
    /// so colour, scale and orientation mistakes all show in the pixels.
    func writePhoto(in folder: String) throws {
        let (w, h) = (480, 320)
        var upright = [UInt8](repeating: 0, count: w * h * 3)
        for y in 0..<h {
            for x in 0..<w {
                let i = (y * w + x) * 3
                let red = x < w / 2 && y < h / 2
                upright[i] = red ? 220 : UInt8(x * 200 / w)
                upright[i + 1] = UInt8(40 + y * 180 / h)
                upright[i + 2] = red ? 30 : UInt8(230 - x * 150 / w)
            }
        }
        let (pixels, sw, sh) = Fixture.stored(upright, width: w, height: h, orientation: 6)
        let image = try Image.fromPixels(pixels, width: sw, height: sh, bands: 3).setting("orientation", to: 6)
        try FileManager.default.createDirectory(atPath: folder + "/photos", withIntermediateDirectories: true)
        try Data(image.encoded(as: .jpeg, quality: 92, strip: false)).write(to: URL(fileURLWithPath: folder + "/photos/side.jpg"))
    }

    /// A job over photos/: `filter` (a preset, or none), a 240-pixel thumbnail that keeps the whole photo, and an
    /// export (by default of the look at 300 pixels; `from: thumbnail` copies the thumbnail) into out/NAME/.
    func writeJob(_ name: String, filter: String?, thumbnail: String = "{size: 240x240, fit: contain}",
                  export: String = "from: image, max-size: 300", in folder: String) throws {
        try TestSupport.write("""
            version: 1
            name: \(name)
            stages:
              - import: {from: photos}
            \(filter.map { "  - filter: {preset: \($0)}\n" } ?? "")\
              - thumbnail: \(thumbnail)
              - export: {\(export), to: "out/\(name)/{name}.jpg"}
            """, to: "\(name).yml", in: folder)
    }

    /// The previews of `run`'s page (nil: the last run's) in order: where each came from, its decoded pixels and the
    /// size the page shows it at.
    func previews(_ folder: String, run: Int? = nil, file: StaticString = #filePath, line: UInt = #line) throws -> [Shown] {
        try previews(inPage: try page(folder, run: run, file: file, line: line))
    }

    /// The report page of `run` (nil: the last), written by the built binary.
    func page(_ folder: String, run: Int? = nil, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let page = "report-\(UUID().uuidString).html"
        let result = try TestSupport.album(["report", "--run", run.map(String.init) ?? "last", "--out", page], in: folder)
        XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
        return try String(contentsOfFile: folder + "/" + page, encoding: .utf8)
    }

    /// One preview of a page: where it came from (`data-from`), its JPEG, decoded, and the size the page shows it at
    /// (its `width` and `height` when a rendition's file is inlined as it is, else the JPEG's own).
    struct Shown {
        var from: String
        var jpeg: [UInt8]
        var image: Image
        var size: [Int]
    }

    /// A page's previews in order.
    func previews(inPage html: String) throws -> [Shown] {
        let page = "report.html"
        let pattern = try NSRegularExpression(pattern: #"data-from="([a-z]+)" src="data:image/jpeg;base64,([A-Za-z0-9+/=]+)"(?: width="([0-9]+)" height="([0-9]+)")?"#)
        return try pattern.matches(in: html, range: NSRange(html.startIndex..., in: html)).map { match in
            let from = String(html[Range(match.range(at: 1), in: html)!])
            let jpeg = try XCTUnwrap(Data(base64Encoded: String(html[Range(match.range(at: 2), in: html)!])))
            let image = try Image.open(FileBytes(bytes: Array(jpeg), path: page), sequential: false, failOn: .error)
            let size = [3, 4].compactMap { Range(match.range(at: $0), in: html).flatMap { Int(html[$0]) } }
            return Shown(from: from, jpeg: Array(jpeg), image: image, size: size.count == 2 ? size : [image.width, image.height])
        }
    }

    /// The run's card previews as pixels, before the page's JPEG encoding (which is the same whatever the source),
    /// made in-process from the catalogue as `album report` makes them, with where each came from.
    func cardPixels(_ folder: String) throws -> [(from: String, image: Image)] {
        let catalogue = try CatalogueReader(folder: folder + "/album")
        defer { catalogue.close() }
        let report = try RunReport.load(from: catalogue, run: nil)
        let card = try ReportPreviews.card(for: try XCTUnwrap(report.photos.first), geometry: ReportImages.geometry,
                                           catalogueFolder: catalogue.folder) { try $0.held() }
        return try ([card.before].compactMap { $0 } + [card.after]).map { ($0.source, try $0.value.image()) }
    }

    /// The mean absolute difference per channel between two previews of the same size (±1 pixel: the smaller
    /// common area is compared).
    func meanDifference(_ a: Image, _ b: Image, file: StaticString = #filePath, line: UInt = #line) throws -> [Double] {
        XCTAssertLessThanOrEqual(abs(a.width - b.width), 1, "widths \(a.width) and \(b.width)", file: file, line: line)
        XCTAssertLessThanOrEqual(abs(a.height - b.height), 1, "heights \(a.height) and \(b.height)", file: file, line: line)
        let (pa, pb) = (try a.pixels(), try b.pixels())
        let (w, h) = (min(a.width, b.width), min(a.height, b.height))
        var sums = [0.0, 0.0, 0.0]
        for y in 0..<h {
            for x in 0..<w {
                for c in 0..<3 { sums[c] += abs(Double(pa[(y * a.width + x) * 3 + c]) - Double(pb[(y * b.width + x) * 3 + c])) }
            }
        }
        return sums.map { $0 / Double(w * h) }
    }

    func assertSame(_ a: Image, _ b: Image, _ what: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let difference = try meanDifference(a, b, file: file, line: line)
        XCTAssert(difference.allSatisfy { $0 <= 2 }, "\(what): mean differences per channel \(difference), over 2 levels", file: file, line: line)
    }

    func testPreviewsFromRenditionsMatchTheOriginalsAndAGoneOrChangedFileFallsBack() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try writePhoto(in: folder)
        try writeJob("plain", filter: nil, in: folder)
        try writeJob("sepia", filter: "sepia", in: folder)
        for job in ["plain", "sepia"] {
            let run = try TestSupport.album(["run", "\(job).yml"], in: folder)
            XCTAssertEqual(run.status, 0, run.stderr)
        }
        let catalogue = try CatalogueReader(folder: folder + "/album")
        let photo = try XCTUnwrap(try catalogue.allPhotos().first)
        let renditions = try catalogue.renditions(photo: photo.id)
        catalogue.close()
        func file(_ kind: Rendition.Kind, look: String) throws -> String {
            try XCTUnwrap(renditions.last { $0.kind == kind && $0.inputHash == look }?.path, "a \(kind) of the look")
        }
        XCTAssertEqual(photo.width, 480, "the photo is recorded upright")

        // Every rendition there: the smallest that fits each look, the thumbnails (240×160).
        let fromThumbnails = try previews(folder)
        let thumbnailPixels = try cardPixels(folder)
        XCTAssertEqual(fromThumbnails.map(\.from), ["thumbnail", "thumbnail"], "before (the plain run's thumbnail), after (sepia's)")
        XCTAssertEqual(fromThumbnails.map(\.size), [[200, 133], [200, 133]], "shown in a 200-pixel box")
        // A 240-pixel thumbnail is within 1.25× of the box: inlined as it is (no metadata, sRGB), and what the page
        // shows is what the preview shrunk from it shows.
        for (index, look) in [photo.hash, photo.lookHash].enumerated() {
            XCTAssert(fromThumbnails[index].jpeg == (try Array(Data(contentsOf: URL(fileURLWithPath: try file(.thumbnail, look: look))))),
                      "preview \(index) is its thumbnail's own bytes")
            let scaled = try fromThumbnails[index].image.thumbnail(geometry: ThumbnailGeometry(width: 200, height: 133, crop: .none, sizing: .force))
            try assertSame(scaled, thumbnailPixels[index].image, "preview \(index): the inlined thumbnail at its shown size and the preview shrunk from it")
        }

        // The sepia thumbnail gone: the after comes from the sepia export; the plain export changed in place
        // (same size, other bytes) and the plain thumbnail gone: the before comes from the original.
        try FileManager.default.removeItem(atPath: try file(.thumbnail, look: photo.lookHash))
        try FileManager.default.removeItem(atPath: try file(.thumbnail, look: photo.hash))
        let plainExport = try file(.export, look: photo.hash)
        var bytes = try Array(Data(contentsOf: URL(fileURLWithPath: plainExport)))
        bytes[bytes.count / 2] ^= 0x55
        try Data(bytes).write(to: URL(fileURLWithPath: plainExport))
        let fromExport = try previews(folder)
        let exportPixels = try cardPixels(folder)
        XCTAssertEqual(fromExport.map(\.from), ["original", "export"], "a changed file is not used; a deleted one neither")

        // Every rendition of the look gone: both from the original, one decode.
        try FileManager.default.removeItem(atPath: try file(.export, look: photo.lookHash))
        for filtered in renditions where filtered.kind == .filtered { try? FileManager.default.removeItem(atPath: filtered.path) }
        let fromOriginal = try previews(folder)
        let originalPixels = try cardPixels(folder)
        XCTAssertEqual(thumbnailPixels.map(\.from) + exportPixels.map(\.from) + originalPixels.map(\.from),
                       fromThumbnails.map(\.from) + fromExport.map(\.from) + fromOriginal.map(\.from), "the same sources as the page's")
        XCTAssertEqual(fromOriginal.map(\.from), ["original", "original"], "the photo whose renditions are gone still has its previews")

        // The pixels, before the page's own JPEG encoding: each rendition's preview is the original's within 2 levels.
        try assertSame(thumbnailPixels[0].image, originalPixels[0].image, "before, from the plain thumbnail and from the original")
        try assertSame(thumbnailPixels[1].image, originalPixels[1].image, "after, from the sepia thumbnail and from the original")
        try assertSame(exportPixels[1].image, originalPixels[1].image, "after, from the sepia export and from the original")
        // The original's previews are the ones LookRenderer renders for each look alone (one decode for both here).
        let original = try FileBytes(path: folder + "/photos/side.jpg")
        for (index, recipe) in [Recipe.original, try Recipe(canonicalJSON: photo.filterRecipe)].enumerated() {
            let alone = try LookRenderer.thumbnail(of: original, recipe: recipe, geometry: ReportImages.geometry, failOn: .error)
            XCTAssertEqual(try originalPixels[index].image.pixels(), try alone.pixels(), "look \(index) rendered alone")
        }
        // And the pair is a pair: sepia is far from the original look, and upright (the red quadrant top left).
        XCTAssertGreaterThan(try meanDifference(originalPixels[0].image, originalPixels[1].image).max()!, 10, "the after has the look")
        let corner = try thumbnailPixels[0].image.pixels()
        XCTAssertGreaterThan(Int(corner[(20 * 200 + 20) * 3]), 180, "red at the top left: no rotation applied twice")
    }

    func testAWholePhotoExportComesBeforeACroppedThumbnailAndTheOriginalLast() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try writePhoto(in: folder)
        try writeJob("cover", filter: nil, thumbnail: "{}", in: folder)
        let run = try TestSupport.album(["run", "cover.yml"], in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        let shown = try previews(folder)
        XCTAssertEqual(shown.map(\.from), ["export"], "the 240×240 cover thumbnail shows part of the photo: the 300-pixel export of the whole photo comes first")
        XCTAssertEqual([shown[0].image.width, shown[0].image.height], [200, 133], "a 300-pixel export is shrunk and encoded again")
        XCTAssertEqual(shown[0].size, [200, 133])
        let exportPixels = try cardPixels(folder)
        try FileManager.default.removeItem(atPath: folder + "/out/cover/side.jpg")
        let cropped = try previews(folder)
        XCTAssertEqual(cropped.map(\.from), ["thumbnail"], "no whole-photo rendition left: the run's crop")
        XCTAssertEqual(cropped[0].size, [200, 200], "the 240×240 crop, inlined as it is, shown in the box")
        XCTAssertEqual([cropped[0].image.width, cropped[0].image.height], [240, 240])
        let catalogue = try CatalogueReader(folder: folder + "/album")
        let thumbnail = try XCTUnwrap(try catalogue.renditions(kind: .thumbnail).first)
        catalogue.close()
        try FileManager.default.removeItem(atPath: thumbnail.path)
        let fallback = try previews(folder)
        XCTAssertEqual(fallback.map(\.from), ["original"])
        try assertSame(exportPixels[0].image, try cardPixels(folder)[0].image, "from the export and from the original")
    }

    /// A rendition's file is inlined as it is only when it carries nothing the re-encoded preview would not: a
    /// 240-pixel export that keeps the photo's EXIF (`metadata: strip-gps`, the default) is shrunk and encoded
    /// again; the same export with `metadata: strip` is inlined, shown at the preview's size. A 300-pixel one is
    /// more than 1.25× the box: encoded again.
    func testARenditionIsInlinedAsItIsOnlyWithoutMetadataAndNearTheBoxSize() throws {
        for (metadata, size, inlined) in [("strip-gps", 240, false), ("strip", 240, true), ("strip", 300, false)] {
            let folder = try TestSupport.temporaryFolder(self)
            try writePhoto(in: folder)
            try writeJob("export", filter: nil, thumbnail: "{}", export: "from: image, max-size: \(size), metadata: \(metadata)", in: folder)
            let run = try TestSupport.album(["run", "export.yml"], in: folder)
            XCTAssertEqual(run.status, 0, run.stderr)
            let exported = try Array(Data(contentsOf: URL(fileURLWithPath: folder + "/out/export/side.jpg")))
            let hasEXIF = try Image.open(FileBytes(bytes: exported, path: "side.jpg"), sequential: false, failOn: .error).fieldNames.contains("exif-data")
            XCTAssertEqual(hasEXIF, metadata != "strip", "metadata: \(metadata)")
            let shown = try previews(folder)
            XCTAssertEqual(shown.map(\.from), ["export"], "the whole photo: the export, not the cover thumbnail")
            XCTAssertEqual(shown[0].size, [200, 133], "metadata: \(metadata), \(size) pixels: shown in the box")
            XCTAssertEqual(shown[0].jpeg == exported, inlined, "metadata: \(metadata), \(size) pixels: inlined as it is")
            XCTAssertEqual([shown[0].image.width, shown[0].image.height], inlined ? [240, 160] : [200, 133])
            guard inlined else { continue }
            // What the page shows, the file scaled to the preview's size, is the preview shrunk from it.
            let scaled = try shown[0].image.thumbnail(geometry: ThumbnailGeometry(width: 200, height: 133, crop: .none, sizing: .force))
            try assertSame(scaled, try cardPixels(folder)[0].image, "metadata: \(metadata), \(size) pixels: what the page shows and the preview")
        }
    }

    /// The cover thumbnail of `recipe` rendered alone from the original (`geometry`, the job's), shrunk into the
    /// report's 200-pixel box: what a card showing that crop should show.
    func croppedAlone(_ folder: String, recipe: Recipe, geometry: ThumbnailGeometry) throws -> Image {
        let original = try FileBytes(path: folder + "/photos/side.jpg")
        let alone = try LookRenderer.thumbnail(of: original, recipe: recipe, geometry: geometry, failOn: .error)
        return try alone.thumbnail(geometry: ThumbnailGeometry(width: 200, height: 200, crop: .none, sizing: .down))
    }

    func testACoverJobsReportOpensNoOriginal() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try writePhoto(in: folder)
        // As Benchmarks/thumbnail.yml: 240×240 cover thumbnails (the default), exported from the thumbnail, so no
        // rendition shows the whole photo; then the same with sepia, so both looks have a crop of that geometry.
        try writeJob("plain", filter: nil, thumbnail: "{}", export: "from: thumbnail", in: folder)
        try writeJob("sepia", filter: "sepia", thumbnail: "{}", export: "from: thumbnail", in: folder)
        for job in ["plain", "sepia"] {
            let run = try TestSupport.album(["run", "\(job).yml"], in: folder)
            XCTAssertEqual(run.status, 0, run.stderr)
        }
        let beforePixels = try cardPixels(folder)
        try FileManager.default.removeItem(atPath: folder + "/photos/side.jpg")
        for (run, sources) in [(1, ["thumbnail"]), (2, ["thumbnail", "thumbnail"])] {
            let html = try page(folder, run: run)
            let shown = try previews(inPage: html)
            XCTAssertEqual(shown.map(\.from), sources, "run \(run): every preview from a thumbnail, the original gone")
            XCTAssert(shown.allSatisfy { $0.size == [200, 200] }, "the 240×240 crops in the 200-pixel box")
            XCTAssertFalse(html.contains("no preview"), "run \(run): no card lacks its preview")
            XCTAssert(html.contains("cropped as its 240×240 thumbnail"), "run \(run): the page says the card shows the run's crop")
        }
        XCTAssertEqual(beforePixels.map(\.from), ["thumbnail", "thumbnail"], "before from the plain run's crop, after from sepia's")
        XCTAssertGreaterThan(try meanDifference(beforePixels[0].image, beforePixels[1].image).max()!, 10, "the after has the look")
    }

    /// A filter on a date range, alone: its thumbnail step keeps the original look's thumbnail in the same geometry
    /// (from the same decode), so its report opens no original; each file is byte for byte its look rendered alone,
    /// a rerun makes neither again, and prune keeps the before while the look is current.
    func testAFilteredRunKeepsItsBeforeAndItsReportOpensNoOriginal() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try writePhoto(in: folder)
        try writeJob("sepia", filter: "sepia", thumbnail: "{}", export: "from: thumbnail", in: folder)
        let run = try TestSupport.album(["run", "sepia.yml"], in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        let catalogue = try CatalogueReader(folder: folder + "/album")
        let photo = try XCTUnwrap(try catalogue.allPhotos().first)
        let thumbnails = try catalogue.renditions(kind: .thumbnail)
        catalogue.close()
        XCTAssertEqual(Set(thumbnails.map(\.inputHash)), [photo.hash, photo.lookHash], "the look's thumbnail and the original look's")
        XCTAssertEqual(Set(thumbnails.map(\.parametersHash)).count, 1, "with the same parameters")
        let original = try FileBytes(path: folder + "/photos/side.jpg")
        let stage = ThumbnailStage()
        for (look, recipe) in [(photo.hash, Recipe.original), (photo.lookHash, try Recipe(canonicalJSON: photo.filterRecipe))] {
            let alone = try LookRenderer.renderThumbnail(of: original, recipe: recipe, geometry: stage.geometry, format: stage.format,
                                                         quality: stage.quality, failOn: .warning)
            let file = try XCTUnwrap(thumbnails.first { $0.inputHash == look })
            XCTAssertEqual(try Array(Data(contentsOf: URL(fileURLWithPath: file.path))), alone.bytes,
                           "\(look == photo.hash ? "the before" : "the sepia thumbnail") is its look rendered alone, byte for byte")
        }
        let again = try TestSupport.album(["run", "sepia.yml", "--log-format", "json"], in: folder)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertFalse(again.stdout.contains(#""status":"done""#), "a rerun renders nothing: \(again.stdout)")
        XCTAssertEqual(try TestSupport.album(["prune"], in: folder).status, 0)
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT count(*) FROM renditions WHERE kind = 'thumbnail'"), ["2"],
                       "prune keeps the before of the current look")
        try FileManager.default.removeItem(atPath: folder + "/photos/side.jpg")
        let html = try page(folder, run: 1)
        XCTAssertEqual(try previews(inPage: html).map(\.from), ["thumbnail", "thumbnail"], "the original gone, both from the run's thumbnails")
        XCTAssertFalse(html.contains("no preview"))
        XCTAssertEqual(try TestSupport.album(["verify"], in: folder).status, 1, "verify still sees the original gone")
    }

    func testAFilteredCoverJobsBeforeAndAfterAreTheSameCrop() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try writePhoto(in: folder)
        // A crop of the original look in another frame (240×120) exists, and must not be taken for the before.
        try writeJob("wide", filter: nil, thumbnail: "{size: 240x120}", export: "from: thumbnail", in: folder)
        try writeJob("sepia", filter: "sepia", thumbnail: "{}", export: "from: thumbnail", in: folder)
        for job in ["wide", "sepia"] {
            let run = try TestSupport.album(["run", "\(job).yml"], in: folder)
            XCTAssertEqual(run.status, 0, run.stderr)
        }
        let catalogue = try CatalogueReader(folder: folder + "/album")
        let photo = try XCTUnwrap(try catalogue.allPhotos().first)
        let cover = ThumbnailStage().geometry
        let thumbnails = try catalogue.renditions(kind: .thumbnail).filter { $0.width == cover.width && $0.height == cover.height }
        catalogue.close()
        // The sepia run kept its before, the original look's crop in its own frame: the report uses it. Without it,
        // the wide crop of the original look must not be taken for the before.
        XCTAssertEqual(try cardPixels(folder).map(\.from), ["thumbnail", "thumbnail"], "the sepia run's own before")
        try FileManager.default.removeItem(atPath: try XCTUnwrap(thumbnails.first { $0.inputHash == photo.hash }).path)
        let html = try page(folder)
        XCTAssertEqual(try previews(inPage: html).map(\.from), ["original", "thumbnail"],
                       "the after is the sepia crop; no crop of the original look has its frame, so the before is rendered")
        XCTAssert(html.contains("cropped as its 240×240 thumbnail"))
        let card = try cardPixels(folder)
        XCTAssertEqual(card.map(\.from), ["original", "thumbnail"])
        try assertSame(card[0].image, try croppedAlone(folder, recipe: .original, geometry: cover),
                       "before: the original look in the cover thumbnail's frame, as rendered alone")
        try assertSame(card[1].image, try croppedAlone(folder, recipe: try Recipe(canonicalJSON: photo.filterRecipe), geometry: cover),
                       "after: the sepia cover thumbnail, as rendered alone")
        XCTAssertEqual([card[0].image.width, card[0].image.height], [200, 200], "the before is the crop, not the whole photo")
        XCTAssertGreaterThan(try meanDifference(card[0].image, card[1].image).max()!, 10, "the after has the look")
    }

    func testAChangedOrDeletedCoverThumbnailFallsBackToTheOriginal() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try writePhoto(in: folder)
        try writeJob("plain", filter: nil, thumbnail: "{}", export: "from: thumbnail", in: folder)
        try writeJob("sepia", filter: "sepia", thumbnail: "{}", export: "from: thumbnail", in: folder)
        for job in ["plain", "sepia"] {
            let run = try TestSupport.album(["run", "\(job).yml"], in: folder)
            XCTAssertEqual(run.status, 0, run.stderr)
        }
        let catalogue = try CatalogueReader(folder: folder + "/album")
        let photo = try XCTUnwrap(try catalogue.allPhotos().first)
        let thumbnails = try catalogue.renditions(kind: .thumbnail)
        catalogue.close()
        let plain = try XCTUnwrap(thumbnails.first { $0.inputHash == photo.hash }).path
        let sepia = try XCTUnwrap(thumbnails.first { $0.inputHash == photo.lookHash }).path
        func change(_ path: String) throws {
            var bytes = try Array(Data(contentsOf: URL(fileURLWithPath: path)))
            bytes[bytes.count / 2] ^= 0x55
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        }
        // The before's crop changed: the before is rendered from the original, in the after's frame.
        try change(plain)
        let rendered = try cardPixels(folder)
        XCTAssertEqual(rendered.map(\.from), ["original", "thumbnail"])
        try assertSame(rendered[0].image, try croppedAlone(folder, recipe: .original, geometry: ThumbnailStage().geometry),
                       "the before, rendered in the crop's frame")
        // The after's crop changed too, then deleted: no crop left, so the whole photo from the original, both looks.
        for damage in [change, { try FileManager.default.removeItem(atPath: $0) }] {
            try damage(sepia)
            let html = try page(folder)
            let shown = try previews(inPage: html)
            XCTAssertEqual(shown.map(\.from), ["original", "original"], "a changed or deleted thumbnail is not used")
            XCTAssert(shown.allSatisfy { $0.size == [200, 133] && $0.image.width == 200 }, "the whole photo, a pair framed alike, rendered into the box")
            XCTAssertFalse(html.contains("cropped as"), "and the page does not say it is cropped")
        }
    }

    func testAFilteredImageShowsTheLookItsRunApplied() {
        let photo = PhotoRecord(id: "p1", hash: "h", path: "/x.jpg", bytes: 1, mtimeNanoseconds: 0, inode: 0, width: 480, height: 320,
                                format: "jpeg", taken: nil, added: "", caption: nil, filter: "sepia", filterRecipe: #"[{"sepia":{}}]"#,
                                camera: nil, orientation: 1, hasGPS: false, replaces: nil, storedPath: nil)
        func rendition(_ kind: Rendition.Kind, input: String, params: String = "p", file: String = "f", run: Int64 = 1) -> Rendition {
            Rendition(photo: "p1", kind: kind, parametersHash: params, inputHash: input, path: "/r", fileHash: file,
                      width: 480, height: 320, bytes: 1, run: run)
        }
        func run(_ id: Int64, stages: String?) -> RunRecord {
            RunRecord(id: id, job: "j", jobPath: nil, jobHash: nil, started: "", finished: nil, status: "ok", counts: nil,
                      albumVersion: "", vipsVersion: "", sqliteVersion: "", host: "", stages: stages)
        }
        let runs = [run(1, stages: AppliedStage.json([AppliedStage(stage: .filter, parametersHash: "p", look: photo.filterRecipe)]).text),
                    run(2, stages: nil)]
        let looks = RenditionLook.of([
            rendition(.filtered, input: "h"),                       // run 1 applied the photo's look with "p"
            rendition(.filtered, input: "h", run: 2),               // run 2 recorded no stages: unknown look
            rendition(.filtered, input: "h", params: "q"),          // parameters run 1 did not apply
            rendition(.thumbnail, input: photo.lookHash, file: "t"),
            rendition(.export, input: "t"),                          // made from that thumbnail: its look
        ], photo: photo, filterLooks: RenditionLook.filterLooks(of: runs))
        XCTAssertEqual(looks.map(\.rendition.kind), [.filtered, .thumbnail, .export])
        XCTAssertEqual(Set(looks.map(\.look)), [photo.lookHash])
    }
}
