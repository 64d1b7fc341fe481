import Foundation
import XCTest

/// Issue 29, item 11: a run under too low an open-file limit (`ulimit -n`) never crashes. It raises the soft limit to
/// the hard one when that is enough, and else stops before it starts, exit 3, naming the limit and the need. Each
/// album runs through `sh -c 'ulimit …; exec album …'`, so the limit is the process's own from its first instruction.
final class OpenFileLimitTests: XCTestCase {
    private func job(in folder: String, photos: Int) throws {
        for index in 0..<photos { try Fixture.jpeg(at: "\(folder)/src/p\(index).jpg", variant: index) }
        try TestSupport.write("""
            version: 1
            name: fd
            catalogue: album
            stages:
              - import:
                  from: src
              - thumbnail:
                  size: 64x64
              - export:
                  from: thumbnail
                  to: out/{name}.jpg
            """, to: "job.yml", in: folder)
    }

    /// `album ARGUMENTS` under `ulimit LIMIT` (`-n 12` sets both limits, `-Sn 12` the soft one only).
    private func album(_ arguments: [String], limit: [String], in folder: String) throws -> (status: Int32, stdout: String, stderr: String) {
        try TestSupport.album(arguments, in: folder, through: ["/bin/sh", "-c", "ulimit \(limit.joined(separator: " ")) && exec \"$0\" \"$@\""])
    }

    func testTooLowAHardLimitStopsTheRunBeforeItStartsWithExit3() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try job(in: folder, photos: 12)
        for workers in ["1", "2", "4"] {
            let run = try album(["run", "job.yml", "--workers", workers], limit: ["-n", "12"], in: folder)
            XCTAssertEqual(run.status, 3, "workers \(workers): exit 3, never a crash (132): \(run.stderr)")
            XCTAssert(run.stderr.contains("too few file descriptors: the open-file limit (ulimit -n) is 12, and a run with \(workers) worker"),
                      run.stderr)
            XCTAssert(run.stderr.range(of: #"needs \d+ \("#, options: .regularExpression) != nil, "the need, and why: \(run.stderr)")
            XCTAssertEqual(run.stderr.components(separatedBy: "\n").filter { !$0.isEmpty }.count, 1, "one message: \(run.stderr)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: "\(folder)/album/catalogue.db"), "no run began, none is left `running`")
        XCTAssertFalse(FileManager.default.fileExists(atPath: "\(folder)/out"))
    }

    func testASoftLimitBelowTheNeedIsRaisedToTheHardLimit() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try job(in: folder, photos: 16)
        let run = try album(["run", "job.yml", "--workers", "2", "--verbose"], limit: ["-Sn", "12"], in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssert(run.stderr.contains("raised the open-file limit (ulimit -n) from 12 to"), run.stderr)
        XCTAssertEqual(try Tool.sqlite("\(folder)/album/catalogue.db", "SELECT status FROM runs"), "ok")
        XCTAssertEqual(try Tool.sqlite("\(folder)/album/catalogue.db", "SELECT count(*) FROM steps WHERE status <> 'done'"), "0")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: "\(folder)/out").count, 16)
    }

    /// The need album names is enough: a run under exactly that limit does every photo, at 1 and 4 workers.
    func testTheNeedItNamesIsEnough() throws {
        for workers in [1, 4] {
            let folder = try TestSupport.temporaryFolder(self)
            try job(in: folder, photos: 24)
            let refused = try album(["run", "job.yml", "--workers", "\(workers)"], limit: ["-n", "12"], in: folder)
            XCTAssertEqual(refused.status, 3, refused.stderr)
            let need = try XCTUnwrap(refused.stderr.firstMatch(of: /needs (\d+) \(/).flatMap { Int($0.1) }, refused.stderr)
            let run = try album(["run", "job.yml", "--workers", "\(workers)"], limit: ["-n", "\(need)"], in: folder)
            XCTAssertEqual(run.status, 0, "workers \(workers), ulimit -n \(need): \(run.stderr)")
            XCTAssertEqual(try Tool.sqlite("\(folder)/album/catalogue.db", "SELECT status FROM runs"), "ok")
            XCTAssertEqual(try Tool.sqlite("\(folder)/album/catalogue.db", "SELECT stage || ' ' || status || ' ' || count(*) FROM steps WHERE status <> 'done' GROUP BY stage, status"), "",
                           "every photo through its stages")
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: "\(folder)/out").count, 24)
        }
    }
}
