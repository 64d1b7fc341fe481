import Core
import Catalogue
import Cluster

/// `album merge RUNDIR`: carries a distributed run's finished chunks into the catalogue (docs/distributed.md).
struct MergeCommand: Command {
    static let configuration = CommandConfiguration(
        name: "merge",
        abstract: "Merge a distributed run's finished chunks into the catalogue.",
        discussion: """
            Under the catalogue's writer lock, one transaction per chunk. Merging again is harmless: a chunk merged
            again replaces its own rows. Without --partial nothing is merged while a chunk has not finished (exit 3,
            naming them). While chunks read the catalogue in place, the catalogue is written only once every chunk
            has finished: --partial then makes the finished chunks' deltas and merges nothing yet. A chunk made by
            another album or libvips version than the planner's is not merged. Once every chunk is merged the run
            is closed, its chunk databases (and a snapshot, if it kept one) are deleted, and gc, prune,
            rm, relocate and runs work again. Exit status: 0 merged, 1 merged with failed photos, 2 RUNDIR is not a
            distributed run folder (no run.json), 3 otherwise.
            """)

    @Positionals("RUNDIR") var given: [String]
    @Flag("--partial", help: "merge the chunks that finished, and leave the run open for the others") var partial: Bool
    @Flag("--wait", help: "wait until every chunk has finished and the catalogue is free, then merge (a Kubernetes merge Job)") var wait: Bool
    @Option(.number("--timeout", "SECONDS", in: 1...Int(Int32.max), help: "with --wait: give up waiting after this long", defaultHelp: "no limit"))
    var timeout: Int?

    func validate() throws {
        guard given.count == 1 else { throw UsageError(given.isEmpty ? "merge needs a run folder" : "merge takes one run folder, got \(given.count)") }
        if timeout != nil, !wait { throw UsageError("--timeout goes with --wait") }
    }

    func run() throws -> ExitCode {
        let folder = RunFolder(given[0])
        let merge = DistributedMerge(folder: folder, partial: partial,
                                     waitSeconds: wait ? timeout.map(Double.init) ?? Double.greatestFiniteMagnitude : nil)
        do {
            // --wait waits for the catalogue's writer lock too, within the same --timeout.
            let outcome = try CatalogueLock.$wait.withValue(wait ? LockWait(seconds: timeout.map(Double.init)) : nil) { try merge.merge() }
            MergeSummary.print(outcome, folder: folder)
            if !outcome.refused.isEmpty { return .environment }
            return outcome.failedPhotos > 0 ? .failures : .ok
        } catch let error as DistributedError {
            Console.error(error.message)
            return error.exitCode == .retry || error.exitCode == .usage ? error.exitCode : .environment
        }
    }
}
