import Foundation
import XCTest
import System
import Vips
@testable import Media
@testable import Stages

/// Camera RAWs are formats of the table, recognised by their content: TIFF-structured RAWs (DNG, NEF, ARW, PEF, SRW)
/// by libraw's identify, the others by their own magic; a plain TIFF stays a TIFF.
final class RawFormatTests: XCTestCase {
    private func sniffed(_ path: String) throws -> String {
        try ImageFormat.sniff(FileBytes(path: path)).rawValue
    }

    func testTheTenRawFormatsAreRowsThatSayTheyAreRaw() {
        let raws = ImageFormat.registered.filter(\.isRaw).map(\.rawValue)
        XCTAssertEqual(raws, ["dng", "cr2", "cr3", "nef", "arw", "raf", "orf", "rw2", "pef", "srw"])
        XCTAssertFalse(ImageFormat.registered.filter { !$0.isRaw }.contains { raws.contains($0.rawValue) })
        for name in ["jpeg", "heif", "tiff"] { XCTAssertFalse(ImageFormat(rawValue: name)!.isRaw, name) }
        let stage = ImportStage()
        for name in ["IMG_1.DNG", "IMG_1.cr2", "IMG_1.CR3", "DSC_1.NEF", "DSC_1.ARW", "DSCF1.RAF", "P1.ORF", "P1.RW2",
                     "IMGP1.PEF", "SAM_1.SRW"] {
            XCTAssertTrue(stage.accepts(name: name), "import takes \(name) by default")
        }
    }

    /// A DNG is a TIFF file: libraw's identify tells it from a plain TIFF, whatever the file is named.
    func testADNGIsToldFromAPlainTIFFByItsContent() throws {
        let folder = try TestSupport.temporaryFolder(self)
        XCTAssertEqual(try sniffed(RawFixture.dng(at: folder + "/preview.dng", preview: "320x213")), "dng")
        XCTAssertEqual(try sniffed(RawFixture.dng(at: folder + "/bare.dng")), "dng")
        XCTAssertEqual(try sniffed(RawFixture.dng(at: folder + "/named-as-a.tif")), "dng", "by content, not by name")
        let dngHead = try FileBytes(path: folder + "/bare.dng").prefix(64)
        XCTAssertEqual(try ImageFormat.sniff(dngHead).get().rawValue, "tiff", "from the first bytes alone, a DNG is a TIFF")

        // Plain TIFFs stay TIFFs, even one whose EXIF names a camera maker libraw knows.
        let picture = try FormatFixture.quadrants()
        let tiff = try FormatFixture.write(picture.encoded(suffix: ".tif"), to: "plain.tif", in: folder)
        XCTAssertEqual(try sniffed(tiff), "tiff")
        let nikon = try FormatFixture.write(picture.encoded(suffix: ".tif"), to: "nikon.tif", in: folder)
        let tagged = try Tool.run(["exiftool", "-q", "-overwrite_original", "-Make=NIKON CORPORATION", "-Model=NIKON D850", nikon])
        XCTAssertEqual(tagged.status, 0, tagged.stderr)
        XCTAssertEqual(try sniffed(nikon), "tiff", "a TIFF with a camera's Make is still an image, not a RAW")

        // A JPEG named .dng is a JPEG.
        let jpeg = try FormatFixture.write(picture.encoded(as: .jpeg, quality: 80, strip: true), to: "jpeg.dng", in: folder)
        XCTAssertEqual(try sniffed(jpeg), "jpeg")
    }

    /// A maker's own TIFF-structured RAW (no DNGVersion) is told by the maker libraw identifies, whatever its name.
    func testATIFFStructuredRawIsToldByItsMaker() throws {
        let folder = try TestSupport.temporaryFolder(self)
        for (make, model, format) in [("NIKON CORPORATION", "NIKON D850", "nef"), ("SONY", "ILCE-7M3", "arw"),
                                      ("PENTAX", "PENTAX K-1", "pef"), ("SAMSUNG", "NX1", "srw"),
                                      ("Canon", "Canon EOS 5D Mark IV", "cr2")] {
            let path = try RawFixture.dng(at: folder + "/\(format).raw", preview: "320x240",
                                          ["--not-dng", "--make", make, "--model", model])
            XCTAssertEqual(try sniffed(path), format, make)
        }
    }

    /// The RAWs with a magic of their own are told by it, from the first bytes.
    func testRawsWithTheirOwnMagicAreToldFromTheirFirstBytes() {
        func sniff(_ head: [UInt8]) -> String? { try? ImageFormat.sniff(head + [UInt8](repeating: 0, count: 32)).get().rawValue }
        XCTAssertEqual(sniff(Array("FUJIFILMCCD-RAW 0201".utf8)), "raf")
        XCTAssertEqual(sniff(Array("IIRO".utf8) + [8, 0, 0, 0]), "orf")
        XCTAssertEqual(sniff(Array("MMOR".utf8) + [0, 0, 0, 8]), "orf")
        XCTAssertEqual(sniff([0x49, 0x49, 0x55, 0x00, 0x18, 0, 0, 0]), "rw2")
        XCTAssertEqual(sniff([0, 0, 0, 0x18] + Array("ftypcrx ".utf8)), "cr3")
        XCTAssertEqual(sniff([0x49, 0x49, 0x2A, 0x00, 0x10, 0, 0, 0] + Array("CR".utf8) + [2, 0]), "tiff",
                       "a CR2 is a TIFF that libraw identifies as Canon's: from its first bytes alone, a TIFF")
    }

    /// Through the built binary: a folder of DNGs (with and without a preview, one named .tif) and a plain TIFF imports
    /// with nothing ignored, each RAW recorded as a dng with a thumbnail, the TIFF as a tiff. On main the DNG was
    /// ignored ("match no include pattern") and the one named .tif failed as a TIFF.
    func testALibraryWithDNGsImportsThemAsRawPhotos() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try RawFixture.dng(at: folder + "/photos/IMG_1.dng", preview: "320x213")
        try RawFixture.dng(at: folder + "/photos/IMG_2.DNG")
        try RawFixture.dng(at: folder + "/photos/scan.tif", preview: "320x213", ["--taken", "2023:01:02 03:04:05"])
        try FormatFixture.write(FormatFixture.quadrants().encoded(suffix: ".tif"), to: "photos/plain.tif", in: folder)
        try TestSupport.write("""
            version: 1
            catalogue: album
            stages:
              - import: {from: photos}
              - thumbnail: {size: 120x120}
            """, to: "job.yml", in: folder)
        let result = try TestSupport.album(["run", "job.yml"], in: folder)
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertFalse((result.stdout + result.stderr).contains("ignored"), result.stdout + result.stderr)
        XCTAssertEqual(try Probe.rows(folder + "/album", """
            SELECT substr(path, 11) || ' ' || format FROM photos ORDER BY path
            """), ["IMG_1.dng dng", "IMG_2.DNG dng", "plain.tif tiff", "scan.tif dng"])
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT count(*) FROM renditions WHERE kind = 'thumbnail'"), ["4"])
    }
}
