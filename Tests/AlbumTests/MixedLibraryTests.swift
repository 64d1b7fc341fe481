import Foundation
import XCTest

/// Issue 32's "Done when", as one library a camera and a phone would leave: DNGs with and without an embedded
/// preview (one with a darktable sidecar, one with a Lightroom one), a RAW+JPEG pair with its sidecar, HEICs with and
/// without an embedded thumbnail, a photo whose sidecar is broken XML, a truncated DNG and a file that claims to be a
/// RAW and is not. Every fixture is written here; every answer comes from the built binary and its catalogue.
final class MixedLibraryTests: XCTestCase {
    /// Gives `path` (a JPEG) a capture time and a camera, as exiftool writes them.
    private func tag(_ path: String, taken: String, make: String, model: String) throws {
        let tagged = try Tool.run(["exiftool", "-q", "-overwrite_original", "-DateTimeOriginal=\(taken)", "-Make=\(make)",
                                   "-Model=\(model)", path])
        XCTAssertEqual(tagged.status, 0, tagged.stderr)
    }

    /// A 1600×1200 HEIC made by libheif's `heif-enc` from a tagged JPEG (heif-enc keeps its EXIF), with an embedded
    /// thumbnail of `thumbnail` pixels on its long edge when given.
    private func heic(at path: String, thumbnail: Int?, taken: String, in folder: String) throws {
        try Probe.require("heif-enc", package: "libheif-examples")
        let source = try Fixture.jpeg(at: folder + "/sources/" + (path as NSString).lastPathComponent + ".jpg",
                                      width: 1600, height: 1200, quality: 95)
        try tag(source, taken: taken, make: "Apple", model: "iPhone 15 Pro")
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let made = try Tool.run(["heif-enc", "-q", "70"] + (thumbnail.map { ["-t", "\($0)"] } ?? []) + ["-o", path, source])
        XCTAssertEqual(made.status, 0, made.stderr)
    }

    private func photos(_ folder: String) throws -> [String: [String: Any]] {
        let ls = try TestSupport.album(["ls", "-c", "album", "--json"], in: folder)
        XCTAssertEqual(ls.status, 0, ls.stderr)
        let list = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(ls.stdout.utf8)) as? [[String: Any]], ls.stdout)
        return Dictionary(uniqueKeysWithValues: list.map { (($0["path"] as? String).map { ($0 as NSString).lastPathComponent } ?? "", $0) })
    }

    func testACameraAndPhoneLibraryImportsWholeWithItsFactsAndItsDamageSaid() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let camera = folder + "/photos/camera", phone = folder + "/photos/phone", bad = folder + "/photos/bad"
        try RawFixture.dng(at: camera + "/IMG_0001.dng", preview: "480x320",
                           ["--make", "Canon", "--model", "Canon EOS 6D", "--taken", "2024:05:06 07:08:09"])
        try TestSupport.write(XMPSidecarTests.attributeSidecar(rating: 5, label: "Red", keywords: ["beach"]),
                              to: "photos/camera/IMG_0001.xmp", in: folder)
        try RawFixture.dng(at: camera + "/IMG_0002.dng", ["--make", "Canon", "--model", "Canon EOS 6D", "--taken", "2024:05:06 07:09:00"])
        try TestSupport.write(XMPSidecarTests.elementSidecar(rating: 2, keywords: ["forest"]), to: "photos/camera/IMG_0002.dng.xmp", in: folder)
        try RawFixture.dng(at: camera + "/IMG_0003.DNG", preview: "480x320",
                           ["--make", "Canon", "--model", "Canon EOS 6D", "--taken", "2024:05:06 07:10:00"])
        try Fixture.jpeg(at: camera + "/IMG_0003.JPG", width: 480, height: 320, variant: 3)
        try tag(camera + "/IMG_0003.JPG", taken: "2024:05:06 07:10:00", make: "Canon", model: "Canon EOS 6D")
        try TestSupport.write(XMPSidecarTests.attributeSidecar(rating: 4, label: "Green", keywords: ["beach", "family"]),
                              to: "photos/camera/IMG_0003.xmp", in: folder)
        try heic(at: phone + "/IMG_0004.heic", thumbnail: 320, taken: "2024:06:01 12:00:00", in: folder)
        try heic(at: phone + "/IMG_0005.heic", thumbnail: nil, taken: "2024:06:01 12:05:00", in: folder)
        try TestSupport.write(XMPSidecarTests.elementSidecar(rating: 1), to: "photos/phone/IMG_0005.heic.XMP", in: folder)
        try Fixture.jpeg(at: bad + "/IMG_0006.jpg", variant: 6)
        try tag(bad + "/IMG_0006.jpg", taken: "2024:07:01 08:00:00", make: "Canon", model: "Canon EOS 6D")
        try TestSupport.write("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF>", to: "photos/bad/IMG_0006.xmp", in: folder)
        try RawFixture.dng(at: bad + "/cut.dng", ["--truncate", "3000"])
        try TestSupport.write("II*\0\u{10}\0\0\0CR\u{2}\0 not a raw at all, only its first bytes", to: "photos/bad/fake.cr2", in: folder)

        try TestSupport.write("""
            version: 1
            catalogue: album
            stages:
              - import: {from: photos}
              - thumbnail: {}
            """, to: "job.yml", in: folder)
        let run = try TestSupport.album(["run", "job.yml"], in: folder)
        let said = run.stdout + run.stderr
        XCTAssertFalse(said.contains("ignored"), "nothing ignored: " + said)
        XCTAssertNotEqual(run.status, 0, "two files failed, and the exit code says so: " + said)
        XCTAssertTrue(said.contains("cut.dng") && said.contains("libraw"), "the truncated DNG in libraw's words: " + said)
        XCTAssertTrue(said.contains("fake.cr2"), "the file that is no RAW is named: " + said)
        XCTAssertTrue(said.contains("IMG_0006.xmp") && said.contains("well-formed"), "the broken sidecar is said: " + said)

        var listed = try photos(folder)
        let good = ["IMG_0001.dng", "IMG_0002.dng", "IMG_0003.JPG", "IMG_0004.heic", "IMG_0005.heic", "IMG_0006.jpg"]
        XCTAssertEqual(Set(listed.keys).subtracting(["cut.dng", "fake.cr2"]), Set(good), "the pair is one photo: \(listed.keys.sorted())")
        for name in good {
            let photo = try XCTUnwrap(listed[name], name)
            XCTAssertNotNil(photo["taken"] as? String, "\(name) has its date")
            XCTAssertNotNil(photo["camera"] as? String, "\(name) has its camera")
            let id = try XCTUnwrap(photo["id"] as? String)
            XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT count(*) FROM renditions WHERE kind = 'thumbnail' AND photo = '\(id)'"),
                           ["1"], "\(name) has its thumbnail")
        }
        let seconds = listed["IMG_0003.JPG"]?["second_originals"] as? [[String: Any]] ?? []
        XCTAssertEqual(seconds.compactMap { ($0["path"] as? String).map { ($0 as NSString).lastPathComponent } }, ["IMG_0003.DNG"])
        XCTAssertEqual(listed["IMG_0001.dng"]?["rating"] as? Int, 5)
        XCTAssertEqual(listed["IMG_0001.dng"]?["label"] as? String, "Red")
        XCTAssertEqual(listed["IMG_0001.dng"]?["keywords"] as? [String], ["beach"])
        XCTAssertEqual(listed["IMG_0002.dng"]?["rating"] as? Int, 2, "darktable's IMG_0002.dng.xmp")
        XCTAssertEqual(listed["IMG_0003.JPG"]?["keywords"] as? [String], ["beach", "family"], "the pair's sidecar")
        XCTAssertEqual(listed["IMG_0005.heic"]?["rating"] as? Int, 1, "a sidecar of the full name, its extension in capitals")
        XCTAssertNil(listed["IMG_0006.jpg"]?["rating"] as? Int, "a broken sidecar gives no facts")

        // A selection on the rating touches exactly the photos rated 4 and up.
        try TestSupport.write("""
            version: 1
            catalogue: album
            stages:
              - thumbnail: {size: 100x100, select: {rating: ">= 4"}}
            """, to: "best.yml", in: folder)
        let best = try TestSupport.album(["run", "best.yml"], in: folder)
        XCTAssertEqual(best.status, 0, best.stdout + best.stderr)
        XCTAssertEqual(Set(try Probe.rows(folder + "/album", """
            SELECT substr(p.path, length(p.path) - 11) FROM renditions r JOIN photos p ON p.id = r.photo
            WHERE r.kind = 'thumbnail' AND r.width <= 100 AND r.height <= 100
            """)), ["IMG_0001.dng", "IMG_0003.JPG"])

        // An edited sidecar changes the facts on the next run, and no thumbnail is rendered again.
        let before = try Probe.rows(folder + "/album", "SELECT path || ' ' || file_hash || ' ' || run FROM renditions ORDER BY path")
        try TestSupport.write(XMPSidecarTests.elementSidecar(rating: 3, keywords: ["forest", "fog"]),
                              to: "photos/camera/IMG_0002.dng.xmp", in: folder)
        let again = try TestSupport.album(["run", "job.yml", "--verbose"], in: folder)
        XCTAssertTrue((again.stdout + again.stderr).contains("sidecar changed: facts updated"), again.stdout + again.stderr)
        listed = try photos(folder)
        XCTAssertEqual(listed["IMG_0002.dng"]?["rating"] as? Int, 3)
        XCTAssertEqual(listed["IMG_0002.dng"]?["keywords"] as? [String], ["forest", "fog"])
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT path || ' ' || file_hash || ' ' || run FROM renditions ORDER BY path"),
                       before, "no rendition was made again")
    }

    /// A library moved with its sidecars: `album relocate` rewrites the sidecar's path with its photo's, so the next
    /// run finds both unchanged and reads neither again.
    func testRelocateMovesASidecarWithItsPhoto() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try Fixture.jpeg(at: folder + "/old/IMG_1.jpg")
        try TestSupport.write(XMPSidecarTests.attributeSidecar(rating: 4, label: "Red", keywords: ["beach"]), to: "old/IMG_1.xmp", in: folder)
        try TestSupport.write("""
            version: 1
            catalogue: album
            stages:
              - import:
                  from: ${LIBRARY}
            """, to: "job.yml", in: folder)
        let first = try TestSupport.album(["run", "job.yml", "--set", "LIBRARY=old"], in: folder)
        XCTAssertEqual(first.status, 0, first.stdout + first.stderr)
        try FileManager.default.moveItem(atPath: folder + "/old", toPath: folder + "/new")
        let relocate = try TestSupport.album(["relocate", "--from", folder + "/old", "--to", folder + "/new", "-c", "album"], in: folder)
        XCTAssertEqual(relocate.status, 0, relocate.stdout + relocate.stderr)
        XCTAssertTrue((relocate.stdout + relocate.stderr).contains("sidecar: \(folder)/old/IMG_1.xmp -> \(folder)/new/IMG_1.xmp"),
                      relocate.stdout + relocate.stderr)
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT sidecar FROM photos"), ["../new/IMG_1.xmp"], "stored relative, as the path is")
        let again = try TestSupport.album(["run", "job.yml", "--set", "LIBRARY=new", "--verbose"], in: folder)
        XCTAssertEqual(again.status, 0, again.stdout + again.stderr)
        XCTAssertFalse((again.stdout + again.stderr).contains("sidecar"), "nothing read again: " + again.stdout + again.stderr)
    }
}
