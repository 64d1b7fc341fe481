import SQLite

extension Catalogue {
    /// Records the start of a run and returns its id.
    public func beginRun(job: String, jobPath: String?, jobHash: String?, started: String, software: Software) throws -> Int64 {
        try insertRow(RunRecord(id: 0, job: job, jobPath: jobPath, jobHash: jobHash, started: started, finished: nil,
                             status: "running", counts: nil, albumVersion: software.album, vipsVersion: software.vips,
                             sqliteVersion: software.sqlite, host: software.host))
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
        try select(RunRecord.self, "ORDER BY id DESC")
    }

    /// Every step of a run's stages, in the order they were recorded (`album caption`'s step is no stage's).
    public func steps(run: Int64) throws -> [StepRecord] {
        try select(StepRecord.self, "WHERE run = ? AND stage <> 'caption' ORDER BY id", [.integer(run)])
    }

    /// Steps of a run per stage and status: what `run-finished` reports, read back from the catalogue.
    public func stepCounts(run: Int64) throws -> [StageName: [StepRecord.Status: Int]] {
        var counts: [StageName: [StepRecord.Status: Int]] = [:]
        for (stage, status, count) in try countSteps(run: run) {
            guard let stage = StageName(rawValue: stage) else { continue }
            counts[stage, default: [:]][status] = count
        }
        return counts
    }

    /// A run's steps per stage and status, counted from its step rows, in the run-finished event's shape:
    /// `{"import":{"done":n,"skipped":n,"failed":n},…}`; only stages that have steps appear.
    /// Used for runs that never finished, which have no recorded counts.
    public func countedSteps(run: Int64) throws -> JSONValue {
        let rows = try countSteps(run: run)
        let stages = StageName.allCases.map(\.rawValue) + ["caption"]
        return .object(stages.filter { stage in rows.contains { $0.stage == stage } }.map { stage in
            (stage, .object(StepRecord.Status.allCases.map { status in
                (status.rawValue, .int(rows.first { $0.stage == stage && $0.status == status }?.count ?? 0))
            }))
        })
    }

    /// The one step-count query: a run's steps per stage name (`caption` included) and status.
    private func countSteps(run: Int64) throws -> [(stage: String, status: StepRecord.Status, count: Int)] {
        try database.query("SELECT stage, status, COUNT(*) AS count FROM steps WHERE run = ? GROUP BY stage, status",
                           [.integer(run)]) { (try $0["stage"], try $0["status"], try $0["count"]) }
    }
}
