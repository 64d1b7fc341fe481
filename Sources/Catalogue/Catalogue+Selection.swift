import SQLite

extension CatalogueReader {
    /// The newest run of a job (`album run` records its job file; `album caption` records none), if any: a
    /// distributed run counts as one, by its parent row, once it is no longer open (a chunk, whose database holds
    /// its own run still open, looks past it to the run before, as the planner did).
    public func lastJobRun() throws -> Int64? {
        try database.query("SELECT MAX(id) AS run FROM runs WHERE job_path IS NOT NULL AND parent IS NULL AND status != 'distributed'") {
            try $0["run"] as Int64?
        }.first ?? nil
    }

    /// Ids of photos with a failed step in the newest job run: what `failed: last-run` selects.
    public func photosFailedInLastJobRun() throws -> Set<String> {
        guard let run = try lastJobRun() else { return [] }
        return Set(try database.query("""
            SELECT DISTINCT photo FROM steps WHERE (run = ? OR run IN (SELECT id FROM runs WHERE parent = ?))
                AND status = 'failed' AND photo IS NOT NULL
            """, [.integer(run), .integer(run)]) { try $0["photo"] as String })
    }
}
