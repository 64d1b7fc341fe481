import XCTest

/// Issue 34: `verify` (both depths), `prune`, `gc` and `report` read the catalogue a row at a time, so their peak
/// memory does not grow with the library. Two libraries, of 2 001 and of 20 001 photos, are made cheaply
/// (`ScaleLibrary`: every photo `ok`, every file sound); each command's peak RSS over the larger must stay within
/// 10 % + 4 MB of the smaller. Sizes only: no time is asserted.
final class StreamingCommandsMemoryTests: XCTestCase {
    /// A library of `count` + 1 photos, and one file in its thumbnails folder that no row records.
    func makeLibrary(_ count: Int) throws -> String {
        let folder = try ScaleLibrary.make(count, for: self)
        try TestSupport.write("left over", to: "album/thumbnails/zz/stray.jpg", in: folder)
        return folder
    }

    func testMaintenanceOfTenTimesMorePhotosTakesNoMoreMemory() throws {
        let sizes = [2_001, 20_001]
        let libraries = try sizes.map { try makeLibrary($0 - 1) }
        // In order: the dry runs before the prune and gc that apply them (which find what the dry runs found).
        let commands = [["verify", "--quick", "--json"], ["verify", "--sample", "50", "--seed", "7", "--json"],
                        ["prune", "--dry-run", "--json"], ["prune", "--json"], ["gc", "--dry-run", "--json"], ["gc", "--json"],
                        ["report", "--out", "report.html"]]
        for command in commands {
            let runs = try libraries.map { try ScaleLibrary.measured(command, in: $0) }
            let name = "album " + command.joined(separator: " ")
            print("StreamingCommandsMemoryTests: \(name): \(sizes[0]) photos \(runs[0].kilobytes) KB, \(sizes[1]) photos \(runs[1].kilobytes) KB")
            XCTAssertLessThanOrEqual(runs[1].kilobytes, runs[0].kilobytes * 11 / 10 + 4_096,
                                     "\(name) grew from \(runs[0].kilobytes) KB to \(runs[1].kilobytes) KB with ten times the photos")
            // What each found is the same in both libraries, but for the photos counted.
            for (run, size) in zip(runs, sizes) {
                switch command[0] {
                case "verify":
                    XCTAssertTrue(run.stdout.contains(#""sound": true"#), run.stdout)
                    let checked = command[1] == "--quick" ? size : 50
                    XCTAssertTrue(run.stdout.contains(#""photos": \#(checked),"#), "\(name): \(run.stdout)")
                case "prune":
                    XCTAssertTrue(run.stdout.contains(#""deleted": 0"#), "\(name): \(run.stdout)")
                case "gc":
                    XCTAssertTrue(run.stdout.contains(#""path": "thumbnails/zz/stray.jpg""#), "\(name): \(run.stdout)")
                    XCTAssertTrue(run.stdout.contains(#""removed": 1"#), "\(name): \(run.stdout)")
                default:
                    break
                }
            }
        }
        for library in libraries {
            XCTAssertFalse(FileManager.default.fileExists(atPath: library + "/album/thumbnails/zz/stray.jpg"), "gc removed the stray file")
            XCTAssertTrue(FileManager.default.fileExists(atPath: library + "/report.html"))
        }
    }
}
