import SQLite
import Core

/// A history entry is a step row joined with its run's (`s` and `r` in `Catalogue.history`): the columns it
/// selects, named, and each read on one line. It is never written.
extension HistoryEntry {
    /// The select list, each expression named as `init(row:)` reads it.
    package static let selection = """
        s.run AS run, r.job AS job, r.job_path AS job_path, s.stage AS stage, s.params AS params, \
        s.status AS status, s.error AS error, s.input_hash AS input_hash, s.output_hash AS output_hash, s.ms AS ms, \
        COALESCE(s.at, r.started) AS time
        """

    package init(row: Row) throws {
        run = try row["run"]
        job = try row["job"]
        jobPath = try row["job_path"]
        stage = try row["stage"]
        parameters = try StepRecord.checkedParameters(try row["params"])
        status = try row["status"]
        error = try row["error"]
        inputHash = try row["input_hash"]
        outputHash = try row["output_hash"]
        milliseconds = try row["ms"]
        time = try row["time"]
    }
}
