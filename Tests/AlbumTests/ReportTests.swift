import Foundation
import XCTest
import System
import Vips
@testable import Catalogue
@testable import Report

/// The run report: one self-contained, escaped HTML page; and the contact sheet.
final class ReportTests: XCTestCase {
    func makeRun(in folder: String, photos: Int = 4) throws {
        for i in 0..<photos {
            try Fixture.jpeg(at: "\(folder)/photos/p\(i).jpg", width: 240, height: 160, variant: i)
        }
        // A caption that must show as text, never run as markup.
        let hostile = try Image.fromPixels(Fixture.quadrantPixels(width: 64, height: 64), width: 64, height: 64, bands: 3)
            .setting("exif-ifd0-ImageDescription", to: "<script>alert('x')</script> & \"friends\"")
        try Data(hostile.encoded(as: .jpeg, quality: 80, strip: false)).write(to: URL(fileURLWithPath: "\(folder)/photos/captioned.jpg"))
        try TestSupport.write("<html><body>404</body></html>", to: "photos/broken.jpg", in: folder)
        try TestSupport.write("""
            version: 1
            name: report-<test>
            report: out/report.html
            stages:
              - import: {from: photos}
              - filter: {preset: sepia}
              - thumbnail: {}
            """, to: "job.yml", in: folder)
    }

    func testAJobWritesASelfContainedEscapedReport() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try makeRun(in: folder)
        let result = try TestSupport.album(["run", "job.yml"], in: folder)
        XCTAssertEqual(result.status, 1, "the broken file fails: \(result.stderr)")
        let html = try String(contentsOfFile: folder + "/out/report.html", encoding: .utf8)
        XCTAssert(html.contains("<h1>report-&lt;test&gt; <span"), "the job's name, escaped")
        XCTAssert(html.contains("failed · exit 1"))
        XCTAssert(html.contains("<code>\(folder)/photos/broken.jpg</code>"), "the broken file is named")
        XCTAssert(html.contains("not an image: it is an HTML page"), "with its reason")
        XCTAssertEqual(html.components(separatedBy: "<article>").count - 1, 5, "every photo of the run in the grid")
        XCTAssertEqual(html.components(separatedBy: "class=\"pair\"").count - 1, 5, "before and after for every filtered photo")
        XCTAssertEqual(html.components(separatedBy: "src=\"data:image/jpeg;base64,").count - 1, 10)
        XCTAssertFalse(html.contains("<script>"), "no markup from a caption survives")
        XCTAssert(html.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;friends&quot;"), "the caption shows as text")
        XCTAssertNil(html.range(of: #"(src|href)="(?!data:)"#, options: .regularExpression), "nothing but data URIs is referenced")
        XCTAssert(html.contains("libvips \(Vips.version)"))
        // The page needs nothing else: its pictures are in it. Each data URI, decoded by Foundation's base64 and
        // libjpeg's djpeg (not by album), is a whole JPEG, with the catalogue and its files gone.
        try FileManager.default.removeItem(atPath: folder + "/album")
        XCTAssertEqual(html.components(separatedBy: folder + "/album").count - 1, 1, "the catalogue is only named")
        XCTAssert(html.contains("from catalogue \(folder)/album.</footer>"), "in the footer, as text")
        let uris = try NSRegularExpression(pattern: #"src="data:image/jpeg;base64,([A-Za-z0-9+/=]+)""#)
        let matches = uris.matches(in: html, range: NSRange(html.startIndex..., in: html))
        XCTAssertEqual(matches.count, 10)
        for (index, match) in matches.enumerated() {
            let base64 = String(html[Range(match.range(at: 1), in: html)!])
            let jpeg = try XCTUnwrap(Data(base64Encoded: base64), "data URI \(index) is base64")
            let path = folder + "/preview\(index).jpg"
            try jpeg.write(to: URL(fileURLWithPath: path))
            let decoded = try Tool.run(["djpeg", "-pnm", "-outfile", "/dev/null", path])
            XCTAssertEqual(decoded.status, 0, "data URI \(index) is a JPEG djpeg decodes: \(decoded.stderr)")
            XCTAssertEqual(decoded.stderr, "", "without a warning (a truncated file warns)")
        }
    }

    /// A damaged photo's card says both what its caption says and why it is damaged (issue 29: the caption hid it).
    func testADamagedCaptionedPhotoShowsItsCaptionAndItsDamage() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let captioned = try Image.fromPixels(Fixture.quadrantPixels(width: 320, height: 200), width: 320, height: 200, bands: 3)
            .setting("exif-ifd0-ImageDescription", to: "Nets drying on the quay")
        let whole = try captioned.encoded(as: .jpeg, quality: 90, strip: false)
        try FileManager.default.createDirectory(atPath: folder + "/photos", withIntermediateDirectories: true)
        try Data(whole.prefix(whole.count * 3 / 4)).write(to: URL(fileURLWithPath: folder + "/photos/quay.jpg"))
        try Data(whole).write(to: URL(fileURLWithPath: folder + "/photos/whole.jpg"))
        try TestSupport.write("""
            version: 1
            report: out/report.html
            stages:
              - import: {from: photos}
              - thumbnail: {}
            """, to: "job.yml", in: folder)
        let result = try TestSupport.album(["run", "job.yml"], in: folder)
        XCTAssertEqual(result.status, 1, "the cut file is damaged: \(result.stderr)")
        let html = try String(contentsOfFile: folder + "/out/report.html", encoding: .utf8)
        let cards = html.components(separatedBy: "<article>").dropFirst().map { $0.components(separatedBy: "</article>")[0] }
        let damaged = try XCTUnwrap(cards.first { $0.contains(">quay.jpg<") }, "the damaged photo has a card: \(html)")
        XCTAssert(damaged.contains("<p class=\"caption\">Nets drying on the quay</p>"), "its caption: \(damaged)")
        XCTAssert(damaged.contains("<p class=\"state bad\">damaged: damaged image data: the decoder reported"), "and its damage: \(damaged)")
        let sound = try XCTUnwrap(cards.first { $0.contains(">whole.jpg<") })
        XCTAssert(sound.contains("Nets drying on the quay") && !sound.contains("damaged"), "the sound copy: its caption only: \(sound)")
    }

    func testTheGridIsCappedAndSaysSo() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try makeRun(in: folder, photos: 6)
        let run = try TestSupport.album(["run", "job.yml"], in: folder)
        XCTAssertEqual(run.status, 1, "the broken file fails, the rest is done: \(run.stderr)")
        let catalogue = try CatalogueReader(folder: folder + "/album")
        defer { catalogue.close() }
        let report = try RunReport.load(from: catalogue, run: nil, gridLimit: 3)
        XCTAssertEqual(report.photos.count, 7)
        XCTAssertEqual(report.failures.count, 1)
        let html = ReportPage(report: report, catalogueFolder: catalogue.folder, software: .current).render()
        XCTAssertEqual(html.components(separatedBy: "<article>").count - 1, 3)
        XCTAssert(html.contains("Showing the first 3 of 7 photos"))
        XCTAssert(html.contains("broken.jpg"), "failures are listed in full whatever the cap")
    }

    func testContactSheetAndReportCommand() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try makeRun(in: folder, photos: 3)
        let run = try TestSupport.album(["run", "job.yml"], in: folder)
        XCTAssertEqual(run.status, 1, "the broken file fails, the rest is done: \(run.stderr)")
        let result = try TestSupport.album(["report", "--run", "last", "--out", "r.html", "--contact-sheet", "sheet.jpg"], in: folder)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssert(FileManager.default.fileExists(atPath: folder + "/r.html"))
        let sheet = try Image.open(FileBytes(path: folder + "/sheet.jpg"), sequential: false, failOn: .error)
        XCTAssertEqual(sheet.width, 4 * 160 + 3 * 8, "four photos across, 160-pixel cells, 8-pixel gaps")
        XCTAssertEqual(sheet.height, 107, "cells as tall as the tallest: 240×160 photos fit to 160×107")
        XCTAssertEqual(try TestSupport.album(["report", "--run", "99", "--out", "x.html"], in: folder).status, 3)
        XCTAssertEqual(try TestSupport.album(["report"], in: folder).status, 2)
    }
}
