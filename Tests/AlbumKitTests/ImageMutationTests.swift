import Foundation
import XCTest
@testable import AlbumKit
import Vips

/// Truncated and bit-flipped images, many of them: each ends as a photo or a failure that explains itself, and the
/// process never crashes or hangs. `ALBUM_SOAK=1` makes a thousand mutants instead of eighty.
final class ImageMutationTests: XCTestCase {

    func testMutatedImagesNeverCrashTheRun() throws {
        let folder = try TestSupport.temporaryFolder(self)
        let soak = ProcessInfo.processInfo.environment["ALBUM_SOAK"] == "1"
        let seeds = [
            try Data(contentsOf: URL(fileURLWithPath: Fixture.jpeg(at: "\(folder)/seed/a.jpg", width: 320, height: 200, orientation: 6, taken: "2008:04:20 19:12:06"))),
            Data(try Image.fromPixels(Fixture.quadrantPixels(width: 120, height: 90), width: 120, height: 90, bands: 3).encoded(as: .png, quality: 100, strip: true)),
            Data(try Image.fromPixels(Fixture.quadrantPixels(width: 120, height: 90), width: 120, height: 90, bands: 3).encoded(as: .webp, quality: 80, strip: true)),
        ]
        try FileManager.default.createDirectory(atPath: folder + "/photos", withIntermediateDirectories: true)
        var random = SplitMix64(state: 0x5EED_2008)
        let count = soak ? 1000 : 80
        for i in 0..<count {
            var bytes = [UInt8](seeds[i % seeds.count])
            switch random.below(3) {
            case 0: bytes = Array(bytes.prefix(random.below(bytes.count)))             // truncated anywhere
            case 1: for _ in 0...random.below(20) { bytes[random.below(bytes.count)] ^= UInt8(1 << random.below(8)) }  // bit flips
            default:                                                                   // a run of bytes overwritten
                let start = random.below(bytes.count), length = min(1 + random.below(64), bytes.count - start)
                for j in start..<start + length { bytes[j] = UInt8(random.below(256)) }
            }
            let ext = ["jpg", "png", "webp"][i % seeds.count]
            try Data(bytes).write(to: URL(fileURLWithPath: "\(folder)/photos/m\(i).\(ext)"))
        }
        try TestSupport.write("""
            version: 1
            stages:
              - import: {from: photos}
              - filter: {preset: sepia}
              - thumbnail: {size: 64x64}
              - export: {from: image, to: "out/{name}.jpg", max-size: 100}
            """, to: "job.yml", in: folder)
        let result = try TestSupport.album(["run", "job.yml", "--workers", "2", "--log-format", "json"], in: folder)
        XCTAssert([0, 1].contains(result.status), "the run ends normally: status \(result.status)\n\(result.stderr.suffix(2000))")
        let events = try result.stdout.split(separator: "\n").map {
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        XCTAssertEqual(events.last?["event"] as? String, "run-finished")
        let steps = events.filter { $0["event"] as? String == "step" }
        XCTAssertEqual(steps.filter { $0["stage"] as? String == "import" }.count, count, "every mutant was looked at")
        for failed in steps where failed["status"] as? String == "failed" {
            let error = failed["error"] as? String ?? ""
            XCTAssertFalse(error.isEmpty, "a failure explains itself: \(failed)")
            XCTAssertFalse(error.contains("\n"), "on one line: \(error)")
        }
        // A mutant that got through every stage has a readable export.
        for export in steps where export["stage"] as? String == "export" && export["status"] as? String == "done" {
            let name = ((export["path"] as! String) as NSString).lastPathComponent
            let stem = (name as NSString).deletingPathExtension
            XCTAssertNoThrow(try Image.open(FileBytes(path: "\(folder)/out/\(stem).jpg"), sequential: false, failOn: .error).pixels())
        }
    }
}
