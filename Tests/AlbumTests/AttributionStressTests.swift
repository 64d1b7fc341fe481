import Foundation
import XCTest
import Vips

/// Damage is attributed to the photo that has it, however busy the machine: the hostile album run again and again
/// with 2 workers beside a CPU hog the test starts and stops itself.
///
/// For every run: no damaged file has a thumbnail or an export, every good photo is done, and every failure reason is
/// the one that file gives when it is run alone with `--workers 1` (computed here, never written down). "Damaged"
/// means exactly that: the file fails when run alone. The fixed seed's 20 damaged files all do, which the test checks,
/// so the set cannot quietly shrink. `ALBUM_SOAK=1` runs 300 loaded runs with a new seed for each album of fixtures
/// every 50 runs; the default is 10 runs, well under a minute on a loaded 2-core machine.
final class AttributionStressTests: XCTestCase {
    func testDamageIsAttributedExactlyUnderLoad() throws {
        let environment = ProcessInfo.processInfo.environment
        let soak = environment["ALBUM_SOAK"] == "1"
        let runs = Int(environment["ALBUM_STRESS_RUNS"] ?? "") ?? (soak ? 300 : 10)
        let runsPerAlbum = soak ? 50 : runs
        let hog = try CPUHog(processes: 2)
        defer { hog.stop() }

        var totals = Totals()
        var run = 0
        var albumIndex = 0
        while run < runs {
            let album = try HostileFixtures(in: try TestSupport.temporaryFolder(self), seed: 0xA1B0 &+ UInt64(albumIndex))
            if albumIndex == 0 {
                XCTAssertEqual(album.damaged.count, 20, "every damaged fixture of the fixed seed fails alone: \(album.solo)")
            }
            XCTAssertEqual(album.good.count, 20, "every good fixture is done alone: \(album.solo.filter { $0.value != nil })")
            for _ in 0..<min(runsPerAlbum, runs - run) {
                totals.add(try album.runLoaded(index: run))
                run += 1
            }
            albumIndex += 1
        }
        print("attribution stress: \(totals.runs) loaded runs of 40 photos at 2 workers: \(totals.damagedAsSuccess) damaged as success, "
              + "\(totals.goodFailed) good photos failed, \(totals.misattributed) misattributed reasons, "
              + "\(totals.failures) failures checked")
        XCTAssertEqual(totals.damagedAsSuccess, 0)
        XCTAssertEqual(totals.goodFailed, 0)
        XCTAssertEqual(totals.misattributed, 0)
    }

    struct Totals {
        var runs = 0, damagedAsSuccess = 0, goodFailed = 0, misattributed = 0, failures = 0
        mutating func add(_ run: RunOutcome) {
            runs += 1
            damagedAsSuccess += run.damagedAsSuccess
            goodFailed += run.goodFailed
            misattributed += run.misattributed
            failures += run.failures
        }
    }

    struct RunOutcome { var damagedAsSuccess = 0, goodFailed = 0, misattributed = 0, failures = 0 }
}

/// 20 good and 20 damaged real JPEGs and PNGs with noisy, photo-like content, and each file's failure when run alone.
/// libjpeg's own check fails a damaged JPEG before libvips decodes it; the damaged PNGs fail in libvips itself, so the
/// gate's rerun alone is exercised.
struct HostileFixtures {
    let folder: String
    /// Each file's name and its reason when run alone with `--workers 1` (nil: it is done alone).
    var solo: [String: String?] = [:]
    var good: [String] { solo.filter { $0.value == nil }.map(\.key).sorted() }
    var damaged: [String] { solo.filter { $0.value != nil }.map(\.key).sorted() }

    init(in folder: String, seed: UInt64) throws {
        self.folder = folder
        var random = SplitMix64(state: seed)
        try FileManager.default.createDirectory(atPath: folder + "/photos", withIntermediateDirectories: true)
        for i in 0..<20 {
            try Data(try Self.photo(variant: i, random: &random)).write(to: URL(fileURLWithPath: "\(folder)/photos/good-\(i).jpg"))
        }
        for i in 0..<20 {
            var bytes: [UInt8]
            if i % 5 == 4 {
                // Damage that only warns: the last bytes of a flat picture's scan (DamageWarningTests' last-strip.jpg).
                // libvips 8.14 fails nothing and warns when the image closes ("read gave 1 warnings"), leaving
                // libjpeg's words in its shared error buffer for whoever fails next.
                let scratch = try Fixture.jpeg(at: "\(folder)/scratch/flat-\(i).jpg", variant: 100 + i)
                bytes = Array(try Data(contentsOf: URL(fileURLWithPath: scratch)))
                let eoi = bytes.count - 2
                bytes.replaceSubrange(eoi - 4..<eoi, with: [0xFF, 0xD3, 0x55, 0x55])  // an RST marker in the last MCUs
            } else if i % 5 == 0 || i % 5 == 3 {
                // A truncated PNG: libjpeg's own check of a JPEG never sees it, so its failure is libvips' own (the
                // PNG decoder's words in libvips' shared error buffer), the words the gate must keep to this photo.
                bytes = try Self.photo(variant: 100 + i, random: &random, format: .png)
                Self.damage(&bytes, kind: i % 5, random: &random)
            } else {
                bytes = try Self.photo(variant: 100 + i, random: &random)
                Self.damage(&bytes, kind: i % 5, random: &random)
            }
            let ext = i % 5 == 0 || i % 5 == 3 ? "png" : "jpg"
            try Data(bytes).write(to: URL(fileURLWithPath: "\(folder)/photos/damaged-\(i).\(ext)"))
        }
        for name in try FileManager.default.contentsOfDirectory(atPath: folder + "/photos") {
            solo[name] = try soloReason(of: name)
        }
    }

    /// A 480×360 JPEG of smooth colour with noise: enough entropy-coded data that damage lands in real scans.
    static func photo(variant: Int, random: inout SplitMix64, format: OutputFormat = .jpeg) throws -> [UInt8] {
        let width = 480, height = 360
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        let phase = Double(variant)
        for y in 0..<height {
            for x in 0..<width {
                let base = (y * width + x) * 3
                let noise = Int(random.next() % 48)
                pixels[base] = UInt8(clamping: Int(120 + 100 * sin(Double(x) / 40 + phase)) + noise - 24)
                pixels[base + 1] = UInt8(clamping: Int(120 + 100 * cos(Double(y) / 30 + phase)) + noise - 24)
                pixels[base + 2] = UInt8(clamping: (x + y + variant * 13) % 256 + noise / 2)
            }
        }
        let image = try Image.fromPixels(pixels, width: width, height: height, bands: 3)
        return try image.encoded(as: format, quality: 88, strip: true)
    }

    /// Four kinds of damage, each placed by the seed: a truncation, bits flipped through the scan, a marker in the
    /// middle of the scan, and a truncation of the last few hundred bytes. (The fifth kind, damage that only warns,
    /// is made in `init`.)
    static func damage(_ bytes: inout [UInt8], kind: Int, random: inout SplitMix64) {
        let scanStart = 1000
        switch kind {
        case 0:
            bytes.removeLast(bytes.count - (scanStart + random.below(bytes.count / 2)))
        case 1:
            var i = scanStart + random.below(2000)
            while i < bytes.count - 8 {
                bytes[i] ^= UInt8(1 << random.below(8))
                i += 100 + random.below(500)
            }
        case 2:
            // An end-of-image marker in the middle of the scan: noise alone often decodes silently as other pixels.
            let start = scanStart + random.below(bytes.count / 2)
            bytes[start] = 0xFF
            bytes[start + 1] = 0xD9
        default:
            bytes.removeLast(200 + random.below(400))
        }
    }

    /// The file's reason when it is the only photo of a run with one worker, or nil when it is done.
    func soloReason(of name: String) throws -> String? {
        let scratch = "\(folder)/solo/\(name)"
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        let result = try run(from: "\(folder)/photos/\(name)", in: scratch, workers: 1)
        return result.failures.first?.value
    }

    /// One run of the whole album at 2 workers, checked against the solo reasons.
    func runLoaded(index: Int) throws -> AttributionStressTests.RunOutcome {
        let scratch = "\(folder)/run-\(index)"
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        let result = try run(from: "\(folder)/photos", in: scratch, workers: 2)
        var outcome = AttributionStressTests.RunOutcome()
        for (name, expected) in solo {
            let stem = (name as NSString).deletingPathExtension
            let exported = FileManager.default.fileExists(atPath: "\(scratch)/out/\(stem).jpg")
            let got = result.failures[name]
            if let expected {
                outcome.failures += 1
                if exported || got == nil { outcome.damagedAsSuccess += 1; print("run \(index): \(name) damaged but \(got == nil ? "not failed" : "exported")") }
                if let got, got != expected { outcome.misattributed += 1; print("run \(index): \(name) failed with \"\(got)\", alone \"\(expected)\"") }
            } else if !exported || got != nil {
                outcome.goodFailed += 1
                print("run \(index): good \(name) \(got.map { "failed: \($0)" } ?? "not exported")")
            }
        }
        let thumbnailCount = ((try? FileManager.default.subpathsOfDirectory(atPath: "\(scratch)/album/thumbnails")) ?? [])
            .filter { $0.hasSuffix(".jpg") }.count
        if thumbnailCount != good.count {
            outcome.damagedAsSuccess += max(0, thumbnailCount - good.count)
            print("run \(index): \(thumbnailCount) thumbnails for \(good.count) good photos")
        }
        try? FileManager.default.removeItem(atPath: scratch)
        return outcome
    }

    /// Runs a thumbnail-and-export job over `source` and returns each file's failure reason, by file name.
    private func run(from source: String, in scratch: String, workers: Int) throws -> (status: Int32, failures: [String: String]) {
        try TestSupport.write("""
            version: 1
            stages:
              - import: {from: "\(source)"}
              - thumbnail: {size: 96x96}
              - export: {from: thumbnail, to: "out/{name}.jpg"}
            """, to: "job.yml", in: scratch)
        let result = try TestSupport.album(["run", "job.yml", "--workers", String(workers), "--log-format", "json"], in: scratch)
        precondition(result.status == 0 || result.status == 1, "album ended with \(result.status): \(result.stderr)")
        var failures: [String: String] = [:]
        for line in result.stdout.split(separator: "\n") {
            guard let event = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  event["event"] as? String == "step", event["status"] as? String == "failed",
                  let path = event["path"] as? String else { continue }
            let name = (path as NSString).lastPathComponent
            let reason = "\(event["stage"] as? String ?? "?"): \(event["error"] as? String ?? "")"
            XCTAssertNil(failures[name], "\(name) fails once")
            failures[name] = reason
        }
        return (result.status, failures)
    }
}

/// Busy loops in child processes, so the test's runs share the CPU as they would on a loaded host.
final class CPUHog {
    private var processes: [Process] = []

    init(processes count: Int) throws {
        for _ in 0..<count {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "while :; do :; done"]
            try process.run()
            processes.append(process)
        }
    }

    func stop() {
        for process in processes where process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        processes = []
    }

    deinit { stop() }
}
