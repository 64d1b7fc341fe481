import Foundation
import XCTest

/// A Live Photo's movie is hashed as a stream wherever it is only hashed (import's second original, `plan`'s "has it
/// changed", a photo's state in `ls`), never read whole: a pair whose MOV is an ffmpeg clip padded with 300 MB of
/// zeros imports, plans and lists with the child's peak RSS (`getrusage(RUSAGE_CHILDREN)` of a Python parent, as
/// `ScaleMemoryTests` measures) well under the movie's size. Sizes only: no time is asserted.
final class LiveMovieMemoryTests: XCTestCase {
    /// The movie's size: large enough that a whole read would show in the peak RSS, small enough to hash quickly.
    private let movieBytes: UInt64 = 300_000_000

    /// `album ARGUMENTS` in `folder`: its stdout and its peak RSS in KB.
    private func measured(_ arguments: [String], in folder: String) throws -> (stdout: String, kilobytes: Int) {
        let result = try TestSupport.album(arguments, in: folder, through: ["/usr/bin/env", "python3", "-c", ScaleLibrary.peak])
        XCTAssertEqual(result.status, 0, "album \(arguments): \(result.stdout)\(result.stderr)")
        let last = result.stderr.split(separator: "\n").last.map(String.init) ?? ""
        let kilobytes = try XCTUnwrap(last.hasPrefix("peak-kb ") ? Int(last.dropFirst(8)) : nil, result.stderr)
        return (result.stdout, kilobytes)
    }

    func testALiveMovieOfThreeHundredMegabytesIsHashedAsAStream() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try Fixture.jpeg(at: "\(folder)/photos/IMG_1.JPG")
        let movie = try MotionFixture.movie(at: "\(folder)/photos/IMG_1.MOV")
        // Zeros after the clip (a sparse tail: read back as zeros, as written ones would be).
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: movie))
        try handle.truncate(atOffset: movieBytes)
        try handle.close()
        try TestSupport.write("""
            version: 1
            name: live
            catalogue: album
            stages:
              - import: {from: photos}
              - thumbnail: {size: 32x32}
            """, to: "job.yml", in: folder)
        let limit = Int(movieBytes / 1024) / 2

        let run = try measured(["run", "job.yml"], in: folder)
        XCTAssertLessThan(run.kilobytes, limit, "import hashes the movie as a stream")
        let sum = try Tool.run(["sha256sum", movie])
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT hash || ' ' || bytes FROM second_originals"),
                       ["\(sum.stdout.prefix(64)) \(movieBytes)"], "its hash is sha256sum's")

        // Touched: its stat is not the one recorded, so plan, ls and the next run hash it again to see that its
        // bytes are the same.
        let later = Date().addingTimeInterval(60)
        try FileManager.default.setAttributes([.modificationDate: later], ofItemAtPath: movie)
        let plan = try measured(["plan", "job.yml"], in: folder)
        XCTAssertLessThan(plan.kilobytes, limit, "plan hashes the touched movie as a stream: \(plan.stdout)")
        let listed = try measured(["ls", "--catalogue", "album", "--json"], in: folder)
        XCTAssertLessThan(listed.kilobytes, limit, "ls's state hashes it as a stream")
        XCTAssert(listed.stdout.contains("\"state\":\"ok\"") || listed.stdout.contains("\"state\": \"ok\""),
                  "a touched movie with the same bytes is not a change: \(listed.stdout)")
        let again = try measured(["run", "job.yml"], in: folder)
        XCTAssertLessThan(again.kilobytes, limit, "the next run's import hashes it as a stream")
    }
}
