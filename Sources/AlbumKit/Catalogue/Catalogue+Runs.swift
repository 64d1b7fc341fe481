import SQLite

extension Catalogue {
    /// Records the start of a run and returns its id; `stages` are the stages a job run applies (`runs.stages`),
    /// nil for a run that applies none (`caption`, `relocate`).
    public func beginRun(job: String, jobPath: String?, jobHash: String?, started: String, software: Software,
                         stages: [AppliedStage]? = nil) throws -> Int64 {
        try insertRow(RunRecord(id: 0, job: job, jobPath: jobPath, jobHash: jobHash, started: started, finished: nil,
                             status: "running", counts: nil, albumVersion: software.album, vipsVersion: software.vips,
                             sqliteVersion: software.sqlite, host: software.host, stages: stages.map { AppliedStage.json($0).text }))
        return database.lastInsertRowID
    }

    /// Records how a run ended.
    public func finishRun(_ run: Int64, finished: String, status: String, counts: String) throws {
        try database.run("UPDATE runs SET finished = ?, status = ?, counts = ? WHERE id = ?",
                         [.text(finished), .text(status), .text(counts), .integer(run)])
    }

    /// Records one step: the one `INSERT INTO steps`, for a stage's step here and for `album caption`'s.
    public func record(_ step: StepRecord) throws {
        try insertRow(step)
    }

    /// Past runs, newest first.
    public func runs() throws -> [RunRecord] {
        try fetchAll(RunRecord.self, "ORDER BY id DESC")
    }

    /// Every step of a run, in the order they were recorded.
    public func steps(run: Int64) throws -> [StepRecord] {
        try fetchAll(StepRecord.self, "WHERE run = ? ORDER BY id", [.integer(run)])
    }

    /// Steps of a run per stage and status, counted from its rows: album's one step-count query, behind the
    /// report's counts and `countedSteps`.
    public func stepCounts(run: Int64) throws -> [StageName: [StepRecord.Status: Int]] {
        var counts: [StageName: [StepRecord.Status: Int]] = [:]
        let rows = try database.query("SELECT stage, status, COUNT(*) AS count FROM steps WHERE run = ? GROUP BY stage, status",
                                      [.integer(run)]) { (try $0["stage"] as StageName, try $0["status"] as StepRecord.Status, try $0["count"] as Int) }
        for (stage, status, count) in rows {
            counts[stage, default: [:]][status] = count
        }
        return counts
    }

    /// A run's step counts in the run-finished event's shape: `{"import":{"done":n,"skipped":n,"failed":n},…}`;
    /// only stages that have steps appear. Used for runs that never finished, which have no recorded counts.
    public func countedSteps(run: Int64) throws -> JSONValue {
        let counts = try stepCounts(run: run)
        return .object(StageName.allCases.compactMap { stage in
            counts[stage].map { byStatus in
                (stage.rawValue, .object(StepRecord.Status.allCases.map { ($0.rawValue, .int(byStatus[$0] ?? 0)) }))
            }
        })
    }
}
