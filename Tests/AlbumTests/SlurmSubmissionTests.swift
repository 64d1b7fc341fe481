import Foundation
import XCTest
@testable import Cluster

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

    /// More chunks than the cluster's array may have tasks (`scontrol show config` says `MaxArraySize = 2`): the array
    /// has two tasks, task T runs chunks T, T + 2, …, and running both tasks' script (as Slurm would, with
    /// `SLURM_ARRAY_TASK_ID`) finishes every chunk, which then merge into the catalogue.
    func testMoreChunksThanArraySlotsRunSeveralChunksPerTask() throws {
        let (folder, environment) = try makeFolder(sbatch: """
            echo "$@" >> "$0.args"
            count=$(cat "$0.count" 2>/dev/null || echo 0); echo $((count + 1)) > "$0.count"; echo $((4242 + count))
            """)
        for i in 2..<5 { try Fixture.jpeg(at: "\(folder)/photos/p\(i).jpg", width: 96, height: 64, variant: i) }
        let scontrol = try TestSupport.write("""
            #!/bin/sh
            [ "$1 $2" = "show config" ] || exit 1
            echo "Configuration data as of 2026-12-04T12:00:00"
            echo "MaxArraySize            = 2"
            echo "MaxJobCount             = 10000"
            """, to: "bin/scontrol", in: folder)
        XCTAssertEqual(chmod(scontrol, 0o755), 0)
        let submit = try TestSupport.album(["run", "job.yml", "--distribute", "slurm", "--chunks", "5", "--workers", "1"],
                                           in: folder, environment: environment)
        XCTAssertEqual(submit.status, 0, submit.stderr)
        XCTAssert(submit.stdout.contains("5 chunks in 2 tasks"), submit.stdout)
        let arguments = try String(contentsOfFile: folder + "/bin/sbatch.args", encoding: .utf8)
        XCTAssert(arguments.contains("--array 0-1 "), "two array tasks: \(arguments)")
        let run = folder + "/album/dist/run-1"
        let script = run + "/engine/chunk.sbatch"
        for task in 0..<2 {
            let ran = try TestSupport.album([], in: folder, through: ["/bin/sh", script],
                                            environment: environment.merging(["SLURM_ARRAY_TASK_ID": String(task)]) { $1 })
            XCTAssertEqual(ran.status, 0, "task \(task): \(ran.stderr)")
            let chunks = ran.stderr.split(separator: "\n").filter { $0.hasPrefix("album: chunk ") }.map { $0.split(separator: " ")[2] }
            XCTAssertEqual(chunks, task == 0 ? ["0", "2", "4"] : ["1", "3"], "task \(task) runs every second chunk: \(ran.stderr)")
        }
        for chunk in 0..<5 { XCTAssert(FileManager.default.fileExists(atPath: run + "/chunk-\(chunk).done"), "chunk \(chunk) finished") }
        let merge = try TestSupport.album(["merge", run], in: folder)
        XCTAssertEqual(merge.status, 0, merge.stderr)
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT COUNT(*) FROM photos"), ["5"])
        XCTAssertEqual(try Probe.rows(folder + "/album", "SELECT state FROM distributed"), ["merged"])
    }

    func testSlurmLimitsComeFromScontrolsConfig() {
        let limits = SlurmLimits(config: "Configuration data as of x\nMaxArraySize            = 40001\nMaxJobCount             = 50000\nMaxStepCount = 7\n")
        XCTAssertEqual(limits, SlurmLimits(maxArraySize: 40001, maxJobCount: 50000))
        XCTAssertEqual(SlurmLimits(config: ""), SlurmLimits(maxArraySize: 1001, maxJobCount: 10_000), "Slurm's defaults")
        XCTAssertEqual(limits.arrayTasks(chunks: 30), 30, "one task a chunk while the array may have them")
        XCTAssertEqual(limits.arrayTasks(chunks: 100_000), 25_000, "at most half of MaxJobCount")
        XCTAssertEqual(SlurmLimits().arrayTasks(chunks: 5_000), 1001, "at most MaxArraySize")
    }

    func testDefaultChunksHoldAFewThousandItemsWithinTheEnginesLimits() {
        XCTAssertEqual(DistributedPlanner.defaultChunks(items: 10_000, parallel: nil, engine: .slurm), 2)
        XCTAssertEqual(DistributedPlanner.defaultChunks(items: 10_000_001, parallel: nil, engine: .slurm), 2_001)
        XCTAssertEqual(DistributedPlanner.defaultChunks(items: 100, parallel: 4, engine: .local), 4, "at least as many as run at once")
        XCTAssertEqual(DistributedPlanner.defaultChunks(items: 3, parallel: 8, engine: .local), 3, "never more than the items")
        XCTAssertEqual(DistributedPlanner.defaultChunks(items: 1_000_000_000, parallel: nil, engine: .k8s), 100_000,
                       "an Indexed Job with backoffLimitPerIndex takes at most 100 000 completions")
    }
}
