import Foundation
import XCTest

/// `album run --distribute slurm` when `sbatch` refuses (issue 29, item 16), without a Slurm: a `sbatch` script the
/// test puts first on PATH is the failing engine. album looks `sbatch` up on PATH (`ProcessPool.capture` runs it
/// through `/usr/bin/env`), as it does on a cluster's login node.
final class SlurmSubmissionTests: XCTestCase {
    /// Two photos, a job that imports and thumbnails them, and `bin/sbatch` running `script` (a POSIX shell body).
    func makeFolder(sbatch script: String) throws -> (folder: String, environment: [String: String]) {
        let folder = try TestSupport.temporaryFolder(self)
        for i in 0..<2 { try Fixture.jpeg(at: "\(folder)/photos/p\(i).jpg", width: 96, height: 64, variant: i) }
        try TestSupport.write("""
            version: 1
            name: slurm-refused
            stages:
              - import: {from: photos}
              - thumbnail: {size: 32x32}
            """, to: "job.yml", in: folder)
        let sbatch = try TestSupport.write("#!/bin/sh\n" + script + "\n", to: "bin/sbatch", in: folder)
        XCTAssertEqual(chmod(sbatch, 0o755), 0)
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return (folder, ["PATH": folder + "/bin:" + path])
    }

    func testARefusedSubmissionAbandonsTheRunSoTheCatalogueTakesWritersAgain() throws {
        let (folder, environment) = try makeFolder(sbatch: #"echo "sbatch: error: Batch job submission failed: Invalid partition name specified" >&2; exit 1"#)
        let submit = try TestSupport.album(["run", "job.yml", "--distribute", "slurm", "--chunks", "2"], in: folder, environment: environment)
        XCTAssertEqual(submit.status, 3, submit.stderr)
        XCTAssert(submit.stderr.contains("sbatch failed (exit 1): sbatch: error: Batch job submission failed: Invalid partition name specified"),
                  "sbatch's own words: \(submit.stderr)")
        XCTAssert(submit.stderr.contains("nothing was submitted, so distributed run 1 is abandoned"), submit.stderr)

        // Every writer works again at once: a run on this machine, then another distributed submission.
        let run = try TestSupport.album(["run", "job.yml"], in: folder, environment: environment)
        XCTAssertEqual(run.status, 0, "a writer after the refused submission: \(run.stderr)")
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT state FROM distributed ORDER BY run"), ["abandoned"])
        let status = try TestSupport.album(["dist", "status", folder + "/album/dist/run-1", "--json"], in: folder)
        XCTAssertEqual(status.status, 0, status.stderr)
        XCTAssert(status.stdout.contains("\"abandoned\""), status.stdout)
    }

    func testAMergeRefusedAfterTheChunksWereQueuedSaysWhatToRun() throws {
        // The first submission (the chunks' array) is taken as job 4242; the second (the merge) is refused.
        let (folder, environment) = try makeFolder(sbatch: """
            count=$(cat "$0.count" 2>/dev/null || echo 0); echo $((count + 1)) > "$0.count"
            if [ "$count" = 0 ]; then echo 4242; exit 0; fi
            echo "sbatch: error: QOSMaxSubmitJobPerUserLimit" >&2; exit 1
            """)
        let submit = try TestSupport.album(["run", "job.yml", "--distribute", "slurm", "--chunks", "2"], in: folder, environment: environment)
        XCTAssertEqual(submit.status, 3, submit.stderr)
        let runFolder = folder + "/album/dist/run-1"
        for words in ["sbatch failed (exit 1): sbatch: error: QOSMaxSubmitJobPerUserLimit",
                      "the chunks are submitted (array job 4242) but not their merge",
                      "--dependency afterany:4242", "album merge \(runFolder)",
                      "scancel 4242` and then `album dist abandon \(runFolder)`"] {
            XCTAssert(submit.stderr.contains(words), "'\(words)' in: \(submit.stderr)")
        }
        // The run stays open for the queued chunks, and abandoning it names the array job to cancel.
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT state FROM distributed"), ["open"])
        let abandon = try TestSupport.album(["dist", "abandon", runFolder], in: folder)
        XCTAssertEqual(abandon.status, 0, abandon.stderr)
        XCTAssert(abandon.stderr.contains("scancel 4242"), abandon.stderr)
    }
}
