import SQLite
import Core

extension Catalogue {
    /// Records the start of a run and returns its id; `stages` are the stages a job run applies (`runs.stages`),
    /// nil for a run that applies none (`caption`, `relocate`).
    public func beginRun(job: String, jobPath: String?, jobHash: String?, started: String, software: Software,
                         stages: [AppliedStage]? = nil, parent: Int64? = nil, chunk: Int? = nil) throws -> Int64 {
        try insertRow(RunRecord(id: 0, job: job, jobPath: jobPath, jobHash: jobHash, started: started, finished: nil,
                             status: "running", counts: nil, albumVersion: software.album, vipsVersion: software.vips,
                             sqliteVersion: software.sqlite, host: software.host, stages: stages.map { AppliedStage.json($0).text },
                             parent: parent, chunk: chunk))
        return database.lastInsertRowID
    }

    /// Records how a run ended. `counts` is the run's step counts per stage and status (the `run-finished` event's
    /// `stages`), the one record of its skipped steps, which are not rows; nil when the run could not count them
    /// (a catalogue write failed under it), so that readers fall back to its rows as for a killed run.
    public func finishRun(_ run: Int64, finished: String, status: String, counts: String?) throws {
        try database.run("UPDATE runs SET finished = ?, status = ?, counts = ? WHERE id = ?",
                         [.text(finished), .text(status), .text(counts), .integer(run)])
    }

    /// Records one step: the one `INSERT INTO steps`, for a stage's step here and for `album caption`'s.
    public func record(_ step: StepRecord) throws {
        try insertRow(step)
    }
}

extension CatalogueReader {
    /// Which run of its job run `id` is: 1 for the first run of a job of that name in this catalogue. Runs of job
    /// files count among themselves, one per distributed run (its parent row), and so do the writes of a command
    /// that records no job file (`album import`'s job 'import', `caption`, `relocate`); a chunk's attempts do not.
    /// Nil for a chunk's attempt, or a run that is not there.
    public func jobRunNumber(_ id: Int64) throws -> Int? {
        try database.query("""
            SELECT COUNT(*) AS n FROM runs AS r, (SELECT job, job_path IS NULL AS bare FROM runs WHERE id = ?1 AND parent IS NULL) AS this
                WHERE r.id <= ?1 AND r.parent IS NULL AND r.job = this.job AND (r.job_path IS NULL) = this.bare
            """, [.integer(id)]) { try $0["n"] as Int }.first.flatMap { $0 > 0 ? $0 : nil }
    }

    /// Past runs, newest first.
    public func runs() throws -> [RunRecord] {
        try fetchAll(RunRecord.self, "ORDER BY id DESC")
    }

    /// Every step of a run, in the order they were recorded; for a distributed run, its chunk attempts' steps.
    public func steps(run: Int64) throws -> [StepRecord] {
        try fetchAll(StepRecord.self, "WHERE run = ? OR run IN (SELECT id FROM runs WHERE parent = ?) ORDER BY id",
                     [.integer(run), .integer(run)])
    }

    /// A run's steps per stage and status, without zeros: the counts the run recorded when it ended
    /// (`runs.counts`), which alone hold its skipped steps, since a skipped step is no row; for a run that never
    /// ended (killed, or still running) its rows' done and failed, and no skipped: they were never counted.
    /// Behind the report's counts and `album runs`.
    public func stepCounts(run: Int64) throws -> [StageName: [StepRecord.Status: Int]] {
        let recorded = try database.query("SELECT counts FROM runs WHERE id = ?", [.integer(run)]) { try $0["counts"] as String? }
        if let text = recorded.first ?? nil, let counts = JSONValue(parsing: text) {
            return Catalogue.stepCounts(counts)
        }
        return try rowCounts(run: run).mapValues { $0.filter { $0.key != .skipped } }.filter { !$0.value.isEmpty }
    }

    /// A run's counts in the run-finished event's shape, `{"import":{"done":n,"skipped":null,"failed":n},…}`, for a
    /// run that recorded none (it never ended): done and failed counted from its rows, and skipped `null`, never
    /// counted. Every one of `stages` (the job stages, `StageRegistry.names`) appears, as in recorded counts, then
    /// any other stage that has rows (`caption`), by name.
    public func countedSteps(run: Int64, stages: [StageName]) throws -> JSONValue {
        let counts = try rowCounts(run: run)
        let others = counts.keys.filter { !stages.contains($0) }.sorted { $0.rawValue < $1.rawValue }
        return .object((stages + others).map { stage in
            (stage.rawValue, .object(StepRecord.Status.allCases.map { status in
                (status.rawValue, status == .skipped ? .null : .int(counts[stage]?[status] ?? 0))
            }))
        })
    }

    /// Recorded counts (`{"import":{"done":n,…},…}`) as a dictionary without zeros; stages album does not know
    /// (`relocate`'s) are left out.
    package static func stepCounts(_ counts: JSONValue) -> [StageName: [StepRecord.Status: Int]] {
        guard case .object(let stages) = counts else { return [:] }
        var result: [StageName: [StepRecord.Status: Int]] = [:]
        for (name, byStatus) in stages {
            guard let stage = StageName(rawValue: name), case .object(let members) = byStatus else { continue }
            for (key, value) in members {
                guard let status = StepRecord.Status(rawValue: key), case .int(let count) = value, count > 0 else { continue }
                result[stage, default: [:]][status] = count
            }
        }
        return result
    }

    /// A run's step rows per stage and status: album's one step-count query.
    private func rowCounts(run: Int64) throws -> [StageName: [StepRecord.Status: Int]] {
        var counts: [StageName: [StepRecord.Status: Int]] = [:]
        let rows = try database.query("SELECT stage, status, COUNT(*) AS count FROM steps WHERE run = ? GROUP BY stage, status",
                                      [.integer(run)]) { (try $0["stage"] as StageName, try $0["status"] as StepRecord.Status, try $0["count"] as Int) }
        for (stage, status, count) in rows {
            counts[stage, default: [:]][status] = count
        }
        return counts
    }
}
