import SQLite

/// A step is one row of `steps` (`id` and `at` are the table's own): each column read and written on one line.
extension StepRecord: TableRecord {
    static let table = "steps"

    init(row: Row) throws {
        run = try row["run"]
        photo = try row["photo"]
        path = try row["path"]
        stage = try row["stage"]
        parameters = try row["params"]
        inputHash = try row["input_hash"]
        outputHash = try row["output_hash"]
        milliseconds = try row["ms"]
        status = try row["status"]
        error = try row["error"]
    }

    var values: [(column: String, value: Value)] {
        [
            ("run", .integer(run)),
            ("photo", .text(photo)),
            ("path", .text(path)),
            ("stage", .text(stage.rawValue)),
            ("params", .text(parameters)),
            ("input_hash", .text(inputHash)),
            ("output_hash", .text(outputHash)),
            ("ms", .real(milliseconds)),
            ("status", .text(status.rawValue)),
            ("error", .text(error)),
        ]
    }
}

extension StageName: ColumnValue {}
extension StepRecord.Status: ColumnValue {}
