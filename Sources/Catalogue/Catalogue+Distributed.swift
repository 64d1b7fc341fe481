import Foundation
import SQLite
import System
import Core

/// A distributed run as the catalogue records it: one row of `distributed` beside its parent row of `runs`.
public struct DistributedRecord: Sendable, Equatable {
    /// The parent run's id.
    public var run: Int64
    /// The run folder, relative to the catalogue folder (`dist/run-N`).
    public var folder: String
    /// `local`, `slurm` or `k8s`.
    public var engine: String
    public var chunks: Int
    /// `open` until every chunk is merged (`merged`) or the run is given up (`abandoned`).
    public var state: String
    public var created: String
    public var ended: String?
}

extension Catalogue {
    /// Records that run `run` is distributed: its parent row is marked `distributed`, so that no writer takes it for
    /// a run left `running`, and gc, prune, rm, relocate and other runs refuse until it is merged or abandoned.
    package func beginDistributed(run: Int64, folder: String, engine: String, chunks: Int, created: String) throws {
        try transaction {
            try database.run("UPDATE runs SET status = 'distributed' WHERE id = ?", [.integer(run)])
            try insertRow(DistributedRecord(run: run, folder: folder, engine: engine, chunks: chunks, state: "open",
                                            created: created, ended: nil))
        }
    }

    /// Records that chunk `record.chunk` of distributed run `record.run` was merged, over its earlier merge's row.
    package func recordMergedChunk(_ record: DistributedChunkRecord) throws {
        try insertRow(record, replacingOn: ["run", "chunk"])
    }
}

extension CatalogueReader {
    /// The distributed run still open, if any (there is at most one: planning one refuses while another is open).
    public func openDistributedRun() throws -> DistributedRecord? {
        try distributedRuns("WHERE state = 'open' ORDER BY run DESC LIMIT 1").first
    }

    /// The distributed run whose parent run is `run`.
    public func distributedRun(_ run: Int64) throws -> DistributedRecord? {
        try fetchAll(DistributedRecord.self, "WHERE run = ?", [.integer(run)]).first
    }

    private func distributedRuns(_ clause: String) throws -> [DistributedRecord] {
        try fetchAll(DistributedRecord.self, clause)
    }

    /// Throws, naming the open distributed run and what to do, when one is open: `doing` is what refuses
    /// ("album gc"). Merging its chunks could otherwise bring back rows and files the command removed.
    public func requireNoOpenDistributedRun(_ doing: String) throws {
        guard let open = try openDistributedRun() else { return }
        let folder = self.folder + "/" + open.folder
        throw CatalogueError("\(doing) refused: distributed run \(open.run) (\(folder), \(open.engine), \(open.chunks) chunks, planned \(Timestamp.local(open.created))) is open. Merge it with `album merge \(folder)`, or give it up with `album dist abandon \(folder)`, then try again")
    }

    /// The chunks of distributed run `run` merged so far, with when.
    public func mergedChunks(of run: Int64) throws -> [Int: String] {
        Dictionary(uniqueKeysWithValues: try fetchAll(DistributedChunkRecord.self, "WHERE run = ?", [.integer(run)]).map { ($0.chunk, $0.merged) })
    }
}

extension Catalogue {
    /// Ends distributed run `run`: `merged` (its parent row then says `ok`, or `failed` when a chunk recorded failed
    /// photos, and holds the chunks' summed counts) or `abandoned` (the parent row says `abandoned`).
    package func endDistributed(run: Int64, state: String, status: String, counts: String?, at time: String) throws {
        try transaction {
            try database.run("UPDATE distributed SET state = ?, ended = ? WHERE run = ?", [.text(state), .text(time), .integer(run)])
            try database.run("UPDATE runs SET status = ?, finished = ?, counts = COALESCE(?, counts) WHERE id = ?",
                             [.text(status), .text(time), .text(counts), .integer(run)])
        }
    }

    /// Copies the catalogue to `path` as one consistent file (`VACUUM INTO`), marked WAL mode in its header (then
    /// closed, so no `-wal` stays): each chunk reads it through a hard link and a log of its own
    /// (`Catalogue.forChunk`), which writes nothing to it; nobody writes it after this.
    package func writeSnapshot(to path: String) throws {
        try database.run("VACUUM INTO ?", [.text(path)])
        let snapshot = try Database(path: path, mode: .readWrite)
        defer { snapshot.close() }
        _ = try snapshot.query("PRAGMA journal_mode = WAL") { $0.text(0) }
    }

    /// The `counts` of the chunk attempts of distributed run `run` merged so far.
    package func chunkCounts(of run: Int64) throws -> [String] {
        try database.query("SELECT counts FROM runs WHERE parent = ? AND counts IS NOT NULL ORDER BY chunk, id", [.integer(run)]) {
            try $0["counts"] as String
        }
    }

    /// How many failed photos the merged chunks of distributed run `run` recorded.
    package func mergedChunkFailures(of run: Int64) throws -> Int {
        try fetchAll(DistributedChunkRecord.self, "WHERE run = ?", [.integer(run)]).reduce(0) { $0 + $1.failed }
    }

    /// What `PRAGMA quick_check` finds wrong with a chunk database, or nil: two copies of one chunk on hosts whose
    /// file locks do not see each other (NFS with local-only locks) could have written it at once.
    public static func chunkDamage(database file: String) throws -> String? {
        let database = try Database(path: file, mode: .readOnly)
        defer { database.close() }
        database.setBusyTimeout(milliseconds: 5_000)
        return try damage(of: database)
    }

    /// The attempts a chunk database records of distributed run `parent` (its run rows), oldest first, read without
    /// writing it; empty when the file is not there. `view`: the file is a running or stopped chunk's view
    /// (`forChunk`), read through its own log.
    public static func chunkAttempts(database file: String, parent: Int64, view: Bool = false) throws -> [RunRecord] {
        guard FileSystem.exists(file) else { return [] }
        let database = view ? try openView(file, writing: false) : try Database(path: file, mode: .readOnly)
        defer { database.close() }
        database.setBusyTimeout(milliseconds: 5_000)
        return try database.query("SELECT * FROM runs WHERE parent = ? ORDER BY id", [.integer(parent)]) { try RunRecord(row: $0) }
    }
}

extension Catalogue {
    /// The file in the catalogue folder that says a distributed run's chunks read `catalogue.db` in place: while it
    /// names an open run, no writer opens the catalogue but the run's own merge and abandon (`openForWriting`).
    public static let inPlaceReadersName = "dist/read-in-place"

    /// Makes `catalogue.db` a file the chunks of distributed run `run` (folder `runFolder`, relative) can read in
    /// place: its write-ahead log checkpointed whole and truncated (`wal_checkpoint(TRUNCATE)`), then the marker
    /// that keeps every other writer off it written. Returns the file's state for the chunks to check, or nil when a
    /// reader holding an older view of the catalogue kept the checkpoint from finishing (the run then keeps a
    /// snapshot instead). Call it last, after the run's rows are written: nothing may write the file after it.
    /// The state is the file's `FileIdentity`: any write changes its size or modification time, and a file put in its
    /// place its inode; a hard link (each chunk's view) changes none of them, unlike the ctime.
    package func prepareForReadingInPlace(run: Int64, runFolder: String) throws -> FileIdentity? {
        let file = folder + "/" + Catalogue.databaseName
        let result = try database.query("PRAGMA wal_checkpoint(TRUNCATE)") { row in (row.int(0) ?? 1, row.int(1) ?? -1) }
        guard let (busy, log) = result.first, busy == 0, log == 0 else { return nil }
        guard let state = FileIdentity(file: file) else { throw CatalogueError("cannot read the state of \(file) after its checkpoint") }
        do {
            try AtomicFile.write(Array("\(runFolder)\n".utf8), to: folder + "/" + Catalogue.inPlaceReadersName)
        } catch {
            throw CatalogueError("cannot write \(folder)/\(Catalogue.inPlaceReadersName): \(error)")
        }
        return state
    }

    /// Whether the marker of chunks reading the catalogue in `folder` in place is there (it may be stale).
    static func hasInPlaceReaders(folder: String) -> Bool {
        FileSystem.exists(folder + "/" + inPlaceReadersName)
    }

    /// Removes the marker of chunks reading the catalogue in place: the run's views are all deltas, or it ended.
    public static func removeInPlaceReaders(folder: String) {
        try? FileSystem.remove(Paths.absolute(folder) + "/" + inPlaceReadersName)
    }

    /// The run folder (relative) whose chunks read the catalogue in `folder` in place, when its marker names a run
    /// the catalogue records as open; a marker of a run that ended is stale and removed. `database`: the catalogue.
    static func inPlaceReaders(folder: String, database: Database) throws -> String? {
        let marker = folder + "/" + inPlaceReadersName
        guard FileSystem.exists(marker) else { return nil }
        let named = (try? String(contentsOfFile: marker, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        let open = try database.query("SELECT folder FROM distributed WHERE state = 'open'") { try $0["folder"] as String }
        guard open.contains(named) else {
            try? FileSystem.remove(marker)
            return nil
        }
        return named
    }
}
