import SQLite

/// A run is one row of `runs`: each column declared once, in the schema's order (`id` is the table's to fill, and
/// read back).
extension RunRecord: TableRecord {
    package static let table = "runs"

    package static let columns: [Column<RunRecord>] = [
        .column("id", "INTEGER PRIMARY KEY", \.id, written: false),
        .column("job", "TEXT NOT NULL", \.job),
        .column("job_path", "TEXT", \.jobPath),
        .column("job_hash", "TEXT", \.jobHash),
        .column("started", "TEXT NOT NULL", \.started),
        .column("finished", "TEXT", \.finished),
        .column("status", "TEXT NOT NULL DEFAULT 'running'", \.status),
        .column("counts", "TEXT", \.counts),
        .column("album_version", "TEXT NOT NULL", \.albumVersion),
        .column("vips_version", "TEXT NOT NULL", \.vipsVersion),
        .column("sqlite_version", "TEXT NOT NULL", \.sqliteVersion),
        .column("host", "TEXT NOT NULL", \.host),
        .column("stages", "TEXT", \.stages, since: 5),
        .column("parent", "INTEGER REFERENCES runs(id) ON DELETE CASCADE", \.parent, since: 6),
        .column("chunk", "INTEGER", \.chunk, since: 6),
    ]

    package static let blank = RunRecord(id: 0, job: "", jobPath: nil, jobHash: nil, started: "", finished: nil, status: "", counts: nil,
                                 albumVersion: "", vipsVersion: "", sqliteVersion: "", host: "")
}
