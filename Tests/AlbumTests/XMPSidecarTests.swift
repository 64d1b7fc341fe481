import Foundation
import XCTest

/// Issue 32: XMP sidecars (`IMG_1.xmp` and `IMG_1.jpg.xmp`) and embedded XMP, read through libxml2; their rating,
/// label and keywords shown and selectable; a changed sidecar updating the facts without rendering again; and a bad
/// sidecar a warning on its photo, never a stop. Every fixture is written here; every answer comes from the built
/// binary (and its catalogue read by the sqlite3 shell).
final class XMPSidecarTests: XCTestCase {
    /// A sidecar as Lightroom writes it: simple properties as attributes of `rdf:Description`, lists as elements.
    static func attributeSidecar(rating: Int, label: String, keywords: [String], hierarchical: [String] = [],
                                 description: String? = nil, taken: String? = nil) -> String {
        let items = { (values: [String]) in values.map { "<rdf:li>\($0)</rdf:li>" }.joined() }
        return """
            <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
            <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="Adobe XMP Core 7.0">
             <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
              <rdf:Description rdf:about=""
                xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/"
                xmlns:lr="http://ns.adobe.com/lightroom/1.0/" xmlns:exif="http://ns.adobe.com/exif/1.0/"
                xmp:Rating="\(rating)" xmp:Label="\(label)"\(taken.map { " exif:DateTimeOriginal=\"\($0)\"" } ?? "")>
               <dc:subject><rdf:Bag>\(items(keywords))</rdf:Bag></dc:subject>
               <lr:hierarchicalSubject><rdf:Bag>\(items(hierarchical))</rdf:Bag></lr:hierarchicalSubject>
               \(description.map { "<dc:description><rdf:Alt><rdf:li xml:lang=\"fr\">Une légende</rdf:li><rdf:li xml:lang=\"x-default\">\($0)</rdf:li></rdf:Alt></dc:description>" } ?? "")
              </rdf:Description>
             </rdf:RDF>
            </x:xmpmeta>
            <?xpacket end="w"?>
            """
    }

    /// A sidecar as darktable and digiKam write it: every property an element, other prefixes for the namespaces.
    static func elementSidecar(rating: Int, label: String? = nil, keywords: [String] = [], title: String? = nil) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <x:xmpmeta xmlns:x="adobe:ns:meta/">
         <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
          <rdf:Description rdf:about="" xmlns:ns1="http://ns.adobe.com/xap/1.0/" xmlns:d="http://purl.org/dc/elements/1.1/">
           <ns1:Rating>\(rating)</ns1:Rating>
           \(label.map { "<ns1:Label>\($0)</ns1:Label>" } ?? "")
           <d:subject><rdf:Seq>\(keywords.map { "<rdf:li>\($0)</rdf:li>" }.joined())</rdf:Seq></d:subject>
           \(title.map { "<d:title><rdf:Alt><rdf:li xml:lang=\"x-default\">\($0)</rdf:li></rdf:Alt></d:title>" } ?? "")
          </rdf:Description>
         </rdf:RDF>
        </x:xmpmeta>
        """
    }

    /// `album ls --json` of `folder/album`, each photo by its file name.
    func listed(_ folder: String, _ extra: [String] = []) throws -> [String: [String: Any]] {
        let ls = try TestSupport.album(["ls", "-c", "album", "--json"] + extra, in: folder)
        XCTAssertEqual(ls.status, 0, ls.stderr)
        let photos = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(ls.stdout.utf8)) as? [[String: Any]], ls.stdout)
        return Dictionary(uniqueKeysWithValues: photos.map { (($0["path"] as? String).map { ($0 as NSString).lastPathComponent } ?? "", $0) })
    }

    /// A job over `photos/` that thumbnails what `select` takes.
    func writeJob(in folder: String, select: String? = nil, report: Bool = false) throws {
        try TestSupport.write("""
            version: 1
            catalogue: album
            \(report ? "report: out/report.html" : "")
            stages:
              - import: {from: photos}
              - thumbnail: {size: 64x64\(select.map { ", select: \($0)" } ?? "")}
            """, to: "job.yml", in: folder)
    }

    func testALibraryImportsSidecarsOfBothConventionsAsFactsNeverAsPhotos() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let photos = folder + "/photos"
        try Fixture.jpeg(at: "\(photos)/a.jpg", variant: 1)
        try TestSupport.write(Self.attributeSidecar(rating: 5, label: "Red", keywords: ["beach", "sunset"],
                                                    hierarchical: ["Places|Europe|Paris"], description: "Sand &amp; sea",
                                                    taken: "2019-07-14T10:11:12+02:00"), to: "a.xmp", in: photos)
        try Fixture.jpeg(at: "\(photos)/b.jpg", variant: 2)
        // Both conventions beside b.jpg: the one with the full name wins.
        try TestSupport.write(Self.elementSidecar(rating: 2, label: "Green", keywords: ["forest"], title: "Woods"), to: "b.jpg.xmp", in: photos)
        try TestSupport.write(Self.elementSidecar(rating: 1, keywords: ["wrong"]), to: "b.xmp", in: photos)
        try Fixture.jpeg(at: "\(photos)/C.JPG", variant: 3)
        try TestSupport.write(Self.elementSidecar(rating: 3), to: "C.XMP", in: photos)  // the extension in any case
        try Fixture.jpeg(at: "\(photos)/d.jpg", variant: 4)  // no sidecar
        try TestSupport.write(Self.elementSidecar(rating: 4), to: "orphan.xmp", in: photos)  // no photo of its own
        try Fixture.jpeg(at: "\(photos)/Trip.xmp/e.jpg", variant: 5)  // a folder named like a sidecar is walked

        let before = try TestSupport.hash("\(photos)/a.xmp")
        let run = try TestSupport.album(["import", "-c", "album", "photos"], in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssert(run.stderr.contains("import         5"), "five photos, no sidecar among them: \(run.stderr)")
        XCTAssert(run.stderr.contains("ignored 1 file that matches no include pattern: xmp 1"),
                  "only the sidecar with no photo is passed over: \(run.stderr)")
        XCTAssertEqual(try TestSupport.hash("\(photos)/a.xmp"), before, "a sidecar is never written")

        let photosListed = try listed(folder)
        XCTAssertEqual(Set(photosListed.keys), ["a.jpg", "b.jpg", "C.JPG", "d.jpg", "e.jpg"])
        let a = try XCTUnwrap(photosListed["a.jpg"])
        XCTAssertEqual(a["rating"] as? Int, 5)
        XCTAssertEqual(a["label"] as? String, "Red")
        XCTAssertEqual(a["keywords"] as? [String], ["beach", "sunset", "Places|Europe|Paris"])
        XCTAssertEqual(a["caption"] as? String, "Sand & sea", "dc:description's x-default, the photo having no caption of its own")
        XCTAssertEqual(a["taken"] as? String, "2019-07-14T10:11:12+02:00", "the sidecar's capture time, the file having none")
        XCTAssertEqual(a["sidecar"] as? String, "\(photos)/a.xmp")
        let b = try XCTUnwrap(photosListed["b.jpg"])
        XCTAssertEqual(b["rating"] as? Int, 2, "b.jpg.xmp wins over b.xmp")
        XCTAssertEqual(b["label"] as? String, "Green")
        XCTAssertEqual(b["keywords"] as? [String], ["forest"])
        XCTAssertEqual(b["title"] as? String, "Woods")
        XCTAssertEqual(b["caption"] as? String, "Woods", "the title is the caption when there is no description")
        XCTAssertEqual(photosListed["C.JPG"]?["rating"] as? Int, 3)
        XCTAssert(photosListed["d.jpg"]?["rating"] is NSNull)
        XCTAssertEqual(photosListed["d.jpg"]?["keywords"] as? [String], [])

        let text = try TestSupport.album(["ls", "-c", "album"], in: folder)
        XCTAssert(text.stdout.contains("rating  label"), text.stdout)
        let line = try XCTUnwrap(text.stdout.split(separator: "\n").first { $0.hasSuffix("/a.jpg") })
        XCTAssert(line.contains("5       Red    beach, sunset, Places|Europe|…  Sand & sea"), "rating, label and keywords in the table: \(line)")
        let show = try TestSupport.album(["show", "-c", "album", "\(photos)/b.jpg"], in: folder)
        XCTAssertEqual(show.status, 0, show.stderr)
        for expected in ["rating    2", "label     Green", "keywords  forest", "title     Woods", "sidecar   \(photos)/b.jpg.xmp"] {
            XCTAssert(show.stdout.contains(expected), "show says \(expected): \(show.stdout)")
        }
    }

    func testAFileImportedAloneHasItsSidecarRead() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try Fixture.jpeg(at: "\(folder)/photos/IMG_1.jpg", variant: 1)
        try TestSupport.write(Self.elementSidecar(rating: 4, keywords: ["alone"]), to: "photos/IMG_1.XMP", in: folder)
        let run = try TestSupport.album(["import", "-c", "album", "photos/IMG_1.jpg"], in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(try listed(folder)["IMG_1.jpg"]?["rating"] as? Int, 4, "no folder listing, the two names looked up")
        XCTAssertEqual(try listed(folder)["IMG_1.jpg"]?["keywords"] as? [String], ["alone"])
    }

    func testEmbeddedXMPIsReadAndASidecarWinsOverIt() throws {
        try Probe.require("exiftool", package: "libimage-exiftool-perl")
        let folder = try TestSupport.temporaryFolder(self)
        let photos = folder + "/photos"
        for (name, variant) in [("alone.jpg", 1), ("both.jpg", 2)] {
            let path = try Fixture.jpeg(at: "\(photos)/\(name)", variant: variant)
            let written = try Tool.run(["exiftool", "-q", "-overwrite_original", "-XMP-xmp:Rating=3", "-XMP-xmp:Label=Blue",
                                        "-XMP-dc:Subject=embedded", "-XMP-dc:Description=From the file", path])
            XCTAssertEqual(written.status, 0, written.stderr)
        }
        try TestSupport.write(Self.elementSidecar(rating: 5, keywords: ["sidecar"]), to: "both.xmp", in: photos)
        XCTAssertEqual(try TestSupport.album(["import", "-c", "album", "photos"], in: folder).status, 0)
        let listed = try listed(folder)
        XCTAssertEqual(listed["alone.jpg"]?["rating"] as? Int, 3, "embedded XMP, read by libxml2")
        XCTAssertEqual(listed["alone.jpg"]?["label"] as? String, "Blue")
        XCTAssertEqual(listed["alone.jpg"]?["keywords"] as? [String], ["embedded"])
        XCTAssertEqual(listed["alone.jpg"]?["caption"] as? String, "From the file")
        XCTAssertEqual(listed["both.jpg"]?["rating"] as? Int, 5, "the sidecar's rating over the embedded one")
        XCTAssertEqual(listed["both.jpg"]?["keywords"] as? [String], ["sidecar"])
        XCTAssertEqual(listed["both.jpg"]?["label"] as? String, "Blue", "a fact the sidecar lacks comes from the file")
    }

    func testASelectionOnRatingTouchesExactlyThosePhotos() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let photos = folder + "/photos"
        for (name, rating) in [("one", 1), ("four", 4), ("five", 5), ("none", nil)] as [(String, Int?)] {
            try Fixture.jpeg(at: "\(photos)/\(name).jpg", variant: name.count + (rating ?? 9))
            if let rating {
                try TestSupport.write(Self.attributeSidecar(rating: rating, label: rating == 5 ? "Red" : "Blue",
                                                            keywords: rating >= 4 ? ["beach"] : ["city"],
                                                            hierarchical: rating == 5 ? ["Places|Europe|Paris"] : []),
                                      to: "\(name).xmp", in: photos)
            }
        }
        try writeJob(in: folder, select: #"{rating: ">= 4"}"#, report: true)
        let run = try TestSupport.album(["run", "job.yml"], in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        let page = try String(contentsOfFile: folder + "/out/report.html", encoding: .utf8)
        XCTAssert(page.contains(#"<p class="meta xmp">★★★★★ · Red · beach, Places|Europe|Paris</p>"#), "the report shows the facts")
        let thumbnailed = try Probe.rows(folder + "/album", """
            SELECT p.path FROM renditions r JOIN photos p ON p.id = r.photo WHERE r.kind = 'thumbnail' ORDER BY p.path
            """)
        XCTAssertEqual(thumbnailed, ["../photos/five.jpg", "../photos/four.jpg"], "stored relative to the catalogue")

        // The same keys on the command line, ANDed.
        let quiet = { (arguments: [String]) in
            try TestSupport.album(["ls", "-c", "album", "--json"] + arguments, in: folder)
        }
        func names(_ arguments: [String]) throws -> Set<String> {
            let result = try quiet(arguments)
            XCTAssertEqual(result.status, 0, result.stderr)
            let objects = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
            return Set(objects.compactMap { ($0["path"] as? String).map { ($0 as NSString).lastPathComponent } })
        }
        XCTAssertEqual(try names(["--rating", ">=4"]), ["four.jpg", "five.jpg"])
        XCTAssertEqual(try names(["--rating", "< 1"]), ["none.jpg"], "unrated counts as 0")
        XCTAssertEqual(try names(["--label", "red"]), ["five.jpg"], "labels in any case")
        XCTAssertEqual(try names(["--keyword", "BEACH", "--rating", "5"]), ["five.jpg"])
        XCTAssertEqual(try names(["--keyword", "europe"]), ["five.jpg"], "a level of a hierarchical keyword")
        XCTAssertEqual(try names(["--keyword", "Places|Europe"]), ["five.jpg"], "the start of its path")
        XCTAssertEqual(try names(["--keyword", "Eur"]), [], "a whole level, not part of one")
        let misspelt = try quiet(["--label", "Rde", "--keyword", "beahc"])
        XCTAssertEqual(misspelt.status, 0)
        XCTAssert(misspelt.stderr.contains("album: warning: --label 'Rde' is no photo's label; did you mean 'Red'?"), misspelt.stderr)
        XCTAssert(misspelt.stderr.contains("album: warning: --keyword 'beahc' is no photo's keyword; did you mean 'beach'?"), misspelt.stderr)
        let bad = try quiet(["--rating", ">> 4"])
        XCTAssertEqual(bad.status, 2)
        XCTAssert(bad.stderr.contains("--rating: '>> 4' is not a rating comparison"), bad.stderr)

        let plan = try TestSupport.album(["plan", "job.yml", "--keyword", "city"], in: folder)
        XCTAssertEqual(plan.status, 0, plan.stderr)
        XCTAssert(plan.stdout.contains("select: keywords city"), "the flag narrows the job's select: \(plan.stdout)")
        let planMisspelt = try TestSupport.album(["plan", "job.yml", "--keyword", "Pari"], in: folder)
        XCTAssert(planMisspelt.stderr.contains("--keyword 'Pari' is no photo's keyword; did you mean 'Paris'?"), planMisspelt.stderr)
        XCTAssert(plan.stdout.contains("thumbnail        0           0         4"), "one.jpg, the city, has a rating under 4: \(plan.stdout)")
    }

    func testSelectionKeysAreCheckedWithTheirPlaceInTheJobFile() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try TestSupport.write("""
            version: 1
            catalogue: album
            select: {ratng: 4}
            stages:
              - import: {from: photos}
              - thumbnail: {select: {rating: "about 4", keywords: [beach, ""]}}
            """, to: "bad.yml", in: folder)
        let check = try TestSupport.album(["check", "bad.yml"], in: folder)
        XCTAssertEqual(check.status, 2)
        XCTAssert(check.stderr.contains("bad.yml:3:10:"), check.stderr)
        XCTAssert(check.stderr.contains("did you mean 'rating'?"), check.stderr)
        XCTAssert(check.stderr.contains("bad.yml:6:34: error: thumbnail.select.rating: 'about 4' is not a rating comparison"), check.stderr)
        XCTAssert(check.stderr.contains("thumbnail.select.keywords holds an empty keyword"), check.stderr)
    }

    func testAnEditedSidecarChangesTheFactsOnTheNextRunWithNothingRenderedAgain() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let photos = folder + "/photos"
        try Fixture.jpeg(at: "\(photos)/a.jpg", variant: 1)
        try Fixture.jpeg(at: "\(photos)/b.jpg", variant: 2)
        try Fixture.jpeg(at: "\(photos)/c.jpg", variant: 3)
        let sidecar = try TestSupport.write(Self.attributeSidecar(rating: 2, label: "Blue", keywords: ["draft"], description: "First words"),
                                            to: "a.jpg.xmp", in: photos)
        try TestSupport.write(Self.attributeSidecar(rating: 1, label: "Blue", keywords: [], description: "XMP words"), to: "b.xmp", in: photos)
        try writeJob(in: folder)
        XCTAssertEqual(try TestSupport.album(["run", "job.yml"], in: folder).status, 0)
        XCTAssertEqual(try TestSupport.album(["caption", "-c", "album", "\(photos)/b.jpg", "Mine"], in: folder).status, 0)
        let thumbnail = try Probe.newestThumbnail(folder + "/album", original: "\(photos)/a.jpg")
        let bytes = try TestSupport.hash(thumbnail)
        let modified = try FileManager.default.attributesOfItem(atPath: thumbnail)[.modificationDate] as? Date

        // Edited as Lightroom saves it: the same name, new content (a new size and time).
        try TestSupport.write(Self.attributeSidecar(rating: 5, label: "Red", keywords: ["final", "beach"], description: "Second words"),
                              to: "a.jpg.xmp", in: photos)
        try TestSupport.write(Self.elementSidecar(rating: 4, title: "Not mine"), to: "b.jpg.xmp", in: photos)  // the full name's, over b.xmp
        try TestSupport.write(Self.elementSidecar(rating: 3), to: "c.xmp", in: photos)  // added
        let plan = try TestSupport.album(["plan", "job.yml", "--verbose"], in: folder)
        XCTAssertEqual(plan.status, 0, plan.stderr)
        XCTAssert(plan.stdout.contains("sidecar changed: facts updated"), plan.stdout)
        XCTAssert(plan.stdout.contains("sidecar added: facts updated"), plan.stdout)
        let run = try TestSupport.album(["run", "job.yml", "--verbose"], in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssert(run.stderr.contains("import done: \(photos)/a.jpg: sidecar changed: facts updated"), run.stderr)
        XCTAssert(run.stderr.contains("thumbnail skipped: \(photos)/a.jpg"), "the pixels are not rendered again: \(run.stderr)")

        let listed = try listed(folder)
        XCTAssertEqual(listed["a.jpg"]?["rating"] as? Int, 5)
        XCTAssertEqual(listed["a.jpg"]?["label"] as? String, "Red")
        XCTAssertEqual(listed["a.jpg"]?["keywords"] as? [String], ["final", "beach"])
        XCTAssertEqual(listed["a.jpg"]?["caption"] as? String, "Second words", "a caption XMP gave follows the sidecar")
        XCTAssertEqual(listed["b.jpg"]?["rating"] as? Int, 4)
        XCTAssertEqual(listed["b.jpg"]?["caption"] as? String, "Mine", "a caption set with album caption is kept")
        XCTAssertEqual(listed["c.jpg"]?["rating"] as? Int, 3)
        XCTAssertEqual(try Probe.newestThumbnail(folder + "/album", original: "\(photos)/a.jpg"), thumbnail)
        XCTAssertEqual(try TestSupport.hash(thumbnail), bytes)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: thumbnail)[.modificationDate] as? Date, modified,
                       "the thumbnail file is not written again")
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT count(*) FROM renditions"), ["3"], "no new rendition")

        // Removed: the facts go with it, and again nothing is rendered.
        try FileManager.default.removeItem(atPath: sidecar)
        let third = try TestSupport.album(["run", "job.yml", "--verbose"], in: folder)
        XCTAssert(third.stderr.contains("sidecar removed: facts updated"), third.stderr)
        XCTAssert(try self.listed(folder)["a.jpg"]?["rating"] is NSNull)
        XCTAssertEqual(try TestSupport.hash(thumbnail), bytes)
        let fourth = try TestSupport.album(["run", "job.yml", "--verbose"], in: folder)
        XCTAssertFalse(fourth.stderr.contains("facts updated"), "a sidecar unchanged since is not read again: \(fourth.stderr)")
    }

    func testASidecarChangeThatMovesAPhotoIntoASelectionDoesOnlyThatWork() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let photos = folder + "/photos"
        try Fixture.jpeg(at: "\(photos)/a.jpg", variant: 1)
        try Fixture.jpeg(at: "\(photos)/b.jpg", variant: 2)
        try TestSupport.write(Self.elementSidecar(rating: 1), to: "a.xmp", in: photos)
        try TestSupport.write(Self.elementSidecar(rating: 5), to: "b.xmp", in: photos)
        try writeJob(in: folder, select: #"{rating: ">= 4"}"#)
        XCTAssertEqual(try TestSupport.album(["run", "job.yml"], in: folder).status, 0)
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT count(*) FROM renditions"), ["1"])
        try TestSupport.write(Self.elementSidecar(rating: 4), to: "a.xmp", in: photos)
        let plan = try TestSupport.album(["plan", "job.yml"], in: folder)
        XCTAssert(plan.stdout.contains("thumbnail        1           1         0"), "one thumbnail to do, one up to date: \(plan.stdout)")
        let run = try TestSupport.album(["run", "job.yml", "--verbose"], in: folder)
        XCTAssert(run.stderr.contains("thumbnail done: \(photos)/a.jpg"), run.stderr)
        XCTAssert(run.stderr.contains("thumbnail skipped: \(photos)/b.jpg"), run.stderr)
    }

    func testABadSidecarIsAWarningOnItsPhotoAndTheRunGoesOn() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let photos = folder + "/photos"
        let names = ["broken", "html", "huge", "fifo", "dtd", "rating"]
        for (index, name) in names.enumerated() { try Fixture.jpeg(at: "\(photos)/\(name).jpg", variant: index + 1) }
        try TestSupport.write(#"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description></rdf:RDF></x:xmpmeta>"#,
                              to: "broken.xmp", in: photos)
        try TestSupport.write("<html><body>not a sidecar</body></html>", to: "html.xmp", in: photos)
        try TestSupport.write(String(repeating: "<!-- padding -->\n", count: 300_000), to: "huge.xmp", in: photos)  // 5 MB
        XCTAssertEqual(mkfifo(photos + "/fifo.xmp", 0o644), 0)
        // Billion laughs, with an external entity for good measure: refused before any entity is expanded or loaded.
        try TestSupport.write("""
            <?xml version="1.0"?>
            <!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
            <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;"><!ENTITY xxe SYSTEM "file:///etc/passwd">]>
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>&lol3;&xxe;</dc:title></rdf:Description>
            </rdf:RDF></x:xmpmeta>
            """, to: "dtd.xmp", in: photos)
        try TestSupport.write(Self.elementSidecar(rating: 9, keywords: ["kept"]), to: "rating.xmp", in: photos)
        try writeJob(in: folder)
        let run = try TestSupport.album(["run", "job.yml"], in: folder)
        XCTAssertEqual(run.status, 0, "a bad sidecar fails nothing: \(run.stderr)")
        XCTAssert(run.stderr.contains("thumbnail      6"), "every photo goes on: \(run.stderr)")
        let expected = [
            "broken": "sidecar \(photos)/broken.xmp: it is not well-formed XML: line 1: Opening and ending tag mismatch: Description line 1 and RDF",
            "html": "sidecar \(photos)/html.xmp: it is XML but not XMP: it has no rdf:RDF element (its root is <html>)",
            "huge": "sidecar \(photos)/huge.xmp: it is 5100000 bytes, over the 4 MB album reads of a sidecar",
            "fifo": "sidecar \(photos)/fifo.xmp: cannot read it: ",
            // libxml2's own guard stops the expansion first ("Detected an entity reference loop"); album's refusal of
            // any DTD is the second line (XMPPacketTests).
            "dtd": "sidecar \(photos)/dtd.xmp: it ",
            "rating": "sidecar \(photos)/rating.xmp: xmp:Rating '9' is not a rating from -1 to 5",
        ]
        let listed = try listed(folder)
        for (name, reason) in expected {
            XCTAssert(run.stderr.contains("album: import done: \(photos)/\(name).jpg: warning: \(reason)"), "the run says it: \(run.stderr)")
            let problem = listed["\(name).jpg"]?["xmp_problem"] as? String
            XCTAssert(problem?.hasPrefix(reason) == true, "\(name): \(problem ?? "nil")")
        }
        XCTAssertEqual(listed["rating.jpg"]?["keywords"] as? [String], ["kept"], "the rest of a sidecar with a bad value is read")
        XCTAssert(listed["dtd.jpg"]?["title"] is NSNull, "no entity is expanded, none loaded")
        let dtd = listed["dtd.jpg"]?["xmp_problem"] as? String ?? ""
        XCTAssert(dtd.contains("entity") || dtd.contains("DTD"), dtd)
        XCTAssertFalse(run.stderr.contains("root:"), "/etc/passwd is never read")

        // Touched: read again, and in GitHub's log format the warning is an annotation on the photo.
        XCTAssertEqual(try Tool.run(["touch", "-m", "-d", "2001-02-03 04:05:06", "\(photos)/html.xmp"]).status, 0)
        let github = try TestSupport.album(["run", "job.yml", "--log-format", "github"], in: folder)
        XCTAssertEqual(github.status, 0, github.stderr)
        XCTAssert(github.stdout.contains("::warning file=photos/html.jpg,title=album import warning::sidecar photos/html.xmp: it is XML but not XMP")
                  || github.stdout.contains("::warning file=\(photos)/html.jpg,title=album import warning::sidecar \(photos)/html.xmp: it is XML but not XMP"),
                  github.stdout)
    }

    func testTextFromXMPIsShownEscaped() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let photos = folder + "/photos"
        try Fixture.jpeg(at: "\(photos)/a.jpg", variant: 1)
        // XML 1.0 cannot hold ESC itself; a C1 control (U+009B, CSI) and a line break it can.
        try TestSupport.write(Self.elementSidecar(rating: 3, label: "Red\u{9B}2J", keywords: ["two\nlines"]), to: "a.xmp", in: photos)
        XCTAssertEqual(try TestSupport.album(["import", "-c", "album", "photos"], in: folder).status, 0)
        let ls = try TestSupport.album(["ls", "-c", "album"], in: folder)
        XCTAssert(ls.stdout.contains(#"Red\x9B2J"#), "the label, shown: \(ls.stdout)")
        XCTAssert(ls.stdout.contains(#"two\nlines"#) || ls.stdout.contains("two lines"), ls.stdout)
        XCTAssertFalse(ls.stdout.contains("\u{9B}"), "no raw control character reaches the terminal")
        let show = try TestSupport.album(["show", "-c", "album", "\(photos)/a.jpg"], in: folder)
        XCTAssert(show.stdout.contains(#"label     Red\x9B2J"#), show.stdout)
        XCTAssert(show.stdout.contains(#"keywords  two\nlines"#), show.stdout)
    }
}
