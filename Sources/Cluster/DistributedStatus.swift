import Foundation
import System
import Core
import Catalogue

/// Where each chunk of a distributed run stands (`album dist status`), read from the run folder and the chunk
/// databases without writing either, and the catalogue's record of what was merged.
public struct DistributedStatus {
    /// One chunk's state.
    public struct Chunk: Sendable, Equatable {
        public enum State: String, Sendable { case pending, running, done, stopped }
        public var chunk: Int
        /// pending: never started; running: a process holds its lock; done: finished (`chunk-K.done`); stopped: started,
        /// not finished, and nobody works on it (killed, or failed on its node): run it again.
        public var state: State
        public var items: Int
        /// The attempts its database records (more than one: it was run again, by the engine or by hand).
        public var attempts: Int
        public var host: String?
        public var seconds: Double?
        public var merged: Bool
    }

    public var plan: DistributedPlan
    /// open, merged or abandoned, as the catalogue records it.
    public var state: String
    public var chunks: [Chunk]

    public func count(_ state: Chunk.State) -> Int { chunks.filter { $0.state == state }.count }
    /// The finished chunks that took longest, slowest first.
    public var slowest: [Chunk] { Array(chunks.filter { $0.seconds != nil }.sorted { $0.seconds! > $1.seconds! }.prefix(5)) }

    /// Reads the status of the run in `folder`.
    /// - Throws: `CatalogueError` when the catalogue cannot be read (missing, damaged, a schema a reader refuses).
    public static func read(_ folder: RunFolder) throws -> DistributedStatus {
        let plan = try DistributedPlan.read(folder)
        var state = "open", merged: [Int: String] = [:]
        // A catalogue that cannot be read (gone, damaged, an older schema) is said, never taken for an open run with
        // nothing merged.
        // Closed before any view is opened: a view may be a hard link of catalogue.db, and closing it would drop
        // this process's locks on that file.
        do {
            let catalogue = try CatalogueReader(folder: plan.catalogue)
            defer { catalogue.close() }
            if let record = try catalogue.distributedRun(plan.run) { state = record.state }
            merged = try catalogue.mergedChunks(of: plan.run)
        }
        var chunks: [Chunk] = []
        for index in 0..<plan.chunks {
            let items = (try? ChunkManifest.read(folder, chunk: index))?.count ?? 0
            let delta = FileSystem.exists(folder.database(index))
            let attempts = delta
                ? (try? Catalogue.chunkAttempts(database: folder.database(index), parent: plan.run)) ?? []
                : viewAttempts(folder, index, run: plan.run)
            var chunk = Chunk(chunk: index, state: .pending, items: items, attempts: attempts.count, host: attempts.last?.host,
                              seconds: nil, merged: merged[index] != nil)
            if let outcome = ChunkOutcome.read(folder, chunk: index) {
                chunk.state = .done
                chunk.host = outcome.host
                chunk.seconds = Timestamp.seconds(from: outcome.started, to: outcome.finished)
                chunk.attempts = max(chunk.attempts, 1)
            } else if isLocked(folder.lock(index)) {
                chunk.state = .running
            } else if !attempts.isEmpty || delta || FileSystem.exists(folder.view(index)) {
                chunk.state = .stopped
            }
            chunks.append(chunk)
        }
        return DistributedStatus(plan: plan, state: state, chunks: chunks)
    }

    /// Whether a process holds the lock file at `path` (one that does not exist is held by nobody).
    /// A chunk's attempts read from its view, only while its lock is free and held here: a running chunk's view is
    /// its process's alone (a status opened beside the writer lost the chunk's log in `make test-slurm`); a running
    /// chunk shows none until it ends.
    private static func viewAttempts(_ folder: RunFolder, _ chunk: Int, run: Int64) -> [RunRecord] {
        guard FileSystem.exists(folder.view(chunk)), let lock = try? FileLock(path: folder.lock(chunk)) else { return [] }
        defer { lock.close() }
        guard (try? lock.tryLock()) == true else { return [] }
        return (try? Catalogue.chunkAttempts(database: folder.view(chunk), parent: run, view: true)) ?? []
    }

    private static func isLocked(_ path: String) -> Bool {
        guard FileSystem.exists(path), let lock = try? FileLock(path: path) else { return false }
        defer { lock.close() }
        return (try? lock.tryLock()) == false
    }

    package var json: JSONValue {
        .object([
            ("run", .int(Int(plan.run))), ("engine", .string(plan.engine.rawValue)), ("state", .string(state)),
            ("chunks", .int(plan.chunks)),
            ("counts", .object(Chunk.State.allCases.map { ($0.rawValue, .int(count($0))) } + [("merged", .int(chunks.filter(\.merged).count))])),
            ("chunk_states", .array(chunks.map { chunk in
                .object([("chunk", .int(chunk.chunk)), ("state", .string(chunk.state.rawValue)), ("items", .int(chunk.items)),
                         ("attempts", .int(chunk.attempts)), ("host", .string(chunk.host)),
                         ("seconds", chunk.seconds.map { .double($0) } ?? .null), ("merged", .bool(chunk.merged))])
            })),
        ])
    }
}

extension DistributedStatus.Chunk.State: CaseIterable {}
