import SQLite

/// A distributed run is one row of `distributed` (schema version 6): each column declared once. `folder` is stored
/// relative to the catalogue folder and read as stored (`dist/run-N`).
extension DistributedRecord: TableRecord {
    package static let table = "distributed"

    package static let columns: [Column<DistributedRecord>] = [
        .column("run", "INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE", \.run, since: 6),
        .column("folder", "TEXT NOT NULL", \.folder, since: 6),
        .column("engine", "TEXT NOT NULL", \.engine, since: 6),
        .column("chunks", "INTEGER NOT NULL", \.chunks, since: 6),
        .column("state", "TEXT NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'merged', 'abandoned'))", \.state, since: 6),
        .column("created", "TEXT NOT NULL", \.created, since: 6),
        .column("ended", "TEXT", \.ended, since: 6),
    ]

    package static let blank = DistributedRecord(run: 0, folder: "", engine: "", chunks: 0, state: "", created: "", ended: nil)
}

/// A chunk of a distributed run merged into the catalogue: one row of `distributed_chunks` (schema version 6), the
/// last merge of that chunk (merging it again replaces the row).
package struct DistributedChunkRecord: Sendable, Equatable {
    /// The distributed run's parent run id.
    package var run: Int64
    package var chunk: Int
    /// When it was merged (UTC).
    package var merged: String
    /// The photos the merge carried, and how many of them the chunk recorded as failed.
    package var photos: Int
    package var failed: Int

    package init(run: Int64, chunk: Int, merged: String, photos: Int, failed: Int) {
        self.run = run
        self.chunk = chunk
        self.merged = merged
        self.photos = photos
        self.failed = failed
    }
}

extension DistributedChunkRecord: TableRecord {
    package static let table = "distributed_chunks"

    package static let columns: [Column<DistributedChunkRecord>] = [
        .column("run", "INTEGER NOT NULL REFERENCES distributed(run) ON DELETE CASCADE", \.run, since: 6),
        .column("chunk", "INTEGER NOT NULL", \.chunk, since: 6),
        .column("merged", "TEXT NOT NULL", \.merged, since: 6),
        .column("photos", "INTEGER NOT NULL", \.photos, since: 6),
        .column("failed", "INTEGER NOT NULL", \.failed, since: 6),
    ]
    package static let constraints = ["PRIMARY KEY (run, chunk)"]

    package static let blank = DistributedChunkRecord(run: 0, chunk: 0, merged: "", photos: 0, failed: 0)
}
