import Core
import Cluster

/// `album dist status|abandon RUNDIR`: a distributed run's chunks, and giving one up (docs/distributed.md).
struct DistCommand: Command {
    static let configuration = CommandConfiguration(
        name: "dist",
        abstract: "Show a distributed run's chunks (status), or give the run up (abandon).",
        discussion: """
            status: how many chunks are pending, running (a process holds the chunk's lock), done, or stopped (started,
            not finished, and nobody works on it: killed, or failed on its node; run it again with `album chunk RUNDIR
            K`), how many were retried, the photos per chunk, and the slowest chunks. Reads only.
            abandon: records the run as abandoned, so that gc, prune, rm, relocate and other runs work again, and
            deletes its chunk databases; cancel the engine's jobs first. Chunks already merged stay merged.
            """)

    enum Action: String { case status, abandon }

    @Positionals("status|abandon RUNDIR") var given: [String]
    @Option(SharedOptions.json) var json: Bool

    func validate() throws {
        guard given.count == 2 else { throw UsageError("dist takes an action (status or abandon) and a run folder") }
        guard Action(rawValue: given[0]) != nil else {
            throw UsageError("unknown action '\(given[0])'; dist takes status or abandon")
        }
    }

    func run() throws -> ExitCode {
        let folder = RunFolder(given[1])
        do {
            switch Action(rawValue: given[0])! {
            case .status: try status(folder)
            case .abandon:
                for note in try DistributedMerge.abandon(folder) { Console.err("album: \(note)") }
                Console.err("album: distributed run in \(folder.path) abandoned")
            }
            return .ok
        } catch let error as DistributedError {
            Console.error(error.message)
            return error.exitCode == .retry ? .environment : error.exitCode
        }
    }

    private func status(_ folder: RunFolder) throws {
        let status = try DistributedStatus.read(folder)
        if json {
            Console.out(status.json.text)
            return
        }
        let plan = status.plan
        let retried = status.chunks.filter { $0.attempts > 1 }.count
        let merged = status.chunks.filter(\.merged).count
        Console.out("distributed run \(plan.run) (\(plan.engine.rawValue), planned \(Timestamp.local(plan.created))): \(status.state)")
        Console.out("chunks: \(plan.chunks); done \(status.count(.done)), running \(status.count(.running)), stopped \(status.count(.stopped)), pending \(status.count(.pending)); retried \(retried); merged \(merged)")
        let items = status.chunks.map(\.items)
        if let low = items.min(), let high = items.max() {
            Console.out("items per chunk: \(low) to \(high), \(items.reduce(0, +)) in all")
        }
        let stopped = status.chunks.filter { $0.state == .stopped }.map(\.chunk)
        if !stopped.isEmpty { Console.out("stopped (run again with album chunk \(folder.path) K): \(ChunkList.text(stopped))") }
        let slowest = status.slowest
        if !slowest.isEmpty {
            let rows = slowest.map { [String($0.chunk), String(format: "%.1f", $0.seconds ?? 0), String($0.items), $0.host ?? "", String($0.attempts)] }
            Console.out("slowest chunks:")
            var table = TextTable(["chunk", "seconds", "items", "host", "attempts"], rightAligned: [0, 1, 2, 4])
            for row in rows { table.append(row) }
            Console.out(table.rendered)
        }
    }
}
