import SQLite

extension Catalogue {
    /// Every step recorded for `photo`, oldest first, with its run's job.
    public func history(photo: String) throws -> [HistoryEntry] {
        try database.query("""
            SELECT s.run, r.job, r.job_path, s.stage, s.params, s.status, s.error, s.input_hash, s.output_hash, s.ms,
                   COALESCE(s.at, r.started)
            FROM steps s JOIN runs r ON r.id = s.run WHERE s.photo = ? ORDER BY s.id
            """, [.text(photo)]) { row in
            HistoryEntry(run: Int64(row.int(0) ?? 0), job: row.text(1) ?? "", jobPath: row.text(2), stage: row.text(3) ?? "",
                         parameters: row.text(4) ?? "{}", status: row.text(5) ?? "", error: row.text(6),
                         inputHash: row.text(7), outputHash: row.text(8), milliseconds: row.double(9) ?? 0,
                         time: row.text(10) ?? "")
        }
    }

    /// A run's steps per stage and status, counted from its step rows, in the run-finished event's shape:
    /// `{"import":{"done":n,"skipped":n,"failed":n},…}`; only stages that have steps appear.
    /// Used for runs that never finished, which have no recorded counts.
    public func countedSteps(run: Int64) throws -> JSONValue {
        let rows = try database.query("SELECT stage, status, COUNT(*) FROM steps WHERE run = ? GROUP BY stage, status",
                                      [.integer(run)]) { ($0.text(0) ?? "", $0.text(1) ?? "", $0.int(2) ?? 0) }
        let stages = ["import", "filter", "thumbnail", "export", "caption"]
        return .object(stages.filter { stage in rows.contains { $0.0 == stage } }.map { stage in
            (stage, .object(StepRecord.Status.allCases.map { status in
                (status.rawValue, .int(rows.first { $0.0 == stage && $0.1 == status.rawValue }?.2 ?? 0))
            }))
        })
    }
}
