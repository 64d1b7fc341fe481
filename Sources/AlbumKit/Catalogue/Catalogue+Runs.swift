import SQLite

extension Catalogue {
    /// Records the start of a run and returns its id.
    public func beginRun(job: String, jobPath: String?, jobHash: String?, started: String, software: Software) throws -> Int64 {
        try database.run("""
            INSERT INTO runs (job, job_path, job_hash, started, album_version, vips_version, sqlite_version, host)
            VALUES (?,?,?,?,?,?,?,?)
            """, [.text(job), .text(jobPath), .text(jobHash), .text(started), .text(software.album),
                  .text(software.vips), .text(software.sqlite), .text(software.host)])
        return database.lastInsertRowID
    }

    /// Records how a run ended.
    public func finishRun(_ run: Int64, finished: String, status: String, counts: String) throws {
        try database.run("UPDATE runs SET finished = ?, status = ?, counts = ? WHERE id = ?",
                         [.text(finished), .text(status), .text(counts), .integer(run)])
    }

    /// Records one step.
    public func record(_ step: StepRecord) throws {
        try database.run("""
            INSERT INTO steps (run, photo, path, stage, params, input_hash, output_hash, ms, status, error)
            VALUES (?,?,?,?,?,?,?,?,?,?)
            """, [.integer(step.run), .text(step.photo), .text(step.path), .text(step.stage.rawValue),
                  .text(step.parameters), .text(step.inputHash), .text(step.outputHash), .real(step.milliseconds),
                  .text(step.status.rawValue), .text(step.error)])
    }

    /// Past runs, newest first.
    public func runs() throws -> [RunRecord] {
        try database.query("""
            SELECT id, job, job_path, job_hash, started, finished, status, counts, album_version, vips_version,
                   sqlite_version, host FROM runs ORDER BY id DESC
            """) { row in
            RunRecord(id: Int64(row.int(0) ?? 0), job: row.text(1) ?? "", jobPath: row.text(2), jobHash: row.text(3),
                      started: row.text(4) ?? "", finished: row.text(5), status: row.text(6) ?? "",
                      counts: row.text(7), albumVersion: row.text(8) ?? "", vipsVersion: row.text(9) ?? "",
                      sqliteVersion: row.text(10) ?? "", host: row.text(11) ?? "")
        }
    }

    /// Steps of a run per stage and status: what `run-finished` reports, read back from the catalogue.
    public func stepCounts(run: Int64) throws -> [StageName: [StepRecord.Status: Int]] {
        var counts: [StageName: [StepRecord.Status: Int]] = [:]
        let rows = try database.query("SELECT stage, status, COUNT(*) FROM steps WHERE run = ? GROUP BY stage, status",
                                      [.integer(run)]) { ($0.text(0) ?? "", $0.text(1) ?? "", $0.int(2) ?? 0) }
        for (stage, status, count) in rows {
            guard let stage = StageName(rawValue: stage), let status = StepRecord.Status(rawValue: status) else { continue }
            counts[stage, default: [:]][status] = count
        }
        return counts
    }
}
