import SQLite

/// A run is one row of `runs`: each column read on one line, and written on one line except `id`, which SQLite
/// assigns (`Catalogue.beginRun` returns it).
extension RunRecord: TableRecord {
    package static let table = "runs"

    package init(row: Row) throws {
        id = try row["id"]
        job = try row["job"]
        jobPath = try row["job_path"]
        jobHash = try row["job_hash"]
        started = try row["started"]
        finished = try row["finished"]
        status = try row["status"]
        counts = try row["counts"]
        albumVersion = try row["album_version"]
        vipsVersion = try row["vips_version"]
        sqliteVersion = try row["sqlite_version"]
        host = try row["host"]
        stages = try row["stages"]
        parent = try row["parent"]
        chunk = try row["chunk"]
    }

    package var values: [(column: String, value: Value)] {
        [
            ("job", .text(job)),
            ("job_path", .text(jobPath)),
            ("job_hash", .text(jobHash)),
            ("started", .text(started)),
            ("finished", .text(finished)),
            ("status", .text(status)),
            ("counts", .text(counts)),
            ("album_version", .text(albumVersion)),
            ("vips_version", .text(vipsVersion)),
            ("sqlite_version", .text(sqliteVersion)),
            ("host", .text(host)),
            ("stages", .text(stages)),
            ("parent", parent.map { .integer($0) } ?? .null),
            ("chunk", .int(chunk)),
        ]
    }
}
