import SQLite

/// A step is one row of `steps` (`id` and `at` are the table's own): each column read and written on one line.
///
/// `album caption`'s steps have the stage `caption`, which is no `StageName`: `Catalogue.setCaption` writes its row
/// through `StepRecord.values(stage:…)`, the same columns, and the queries that read `StepRecord`s leave it out.
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
        StepRecord.values(run: run, photo: photo, path: path, stage: stage.rawValue, parameters: parameters,
                          inputHash: inputHash, outputHash: outputHash, milliseconds: milliseconds, status: status,
                          error: error)
    }

    /// A step row's values, for any stage name (`caption` included).
    static func values(run: Int64, photo: String?, path: String, stage: String, parameters: String, inputHash: String?,
                       outputHash: String?, milliseconds: Double, status: Status, error: String?) -> [(column: String, value: Value)] {
        [
            ("run", .integer(run)),
            ("photo", .text(photo)),
            ("path", .text(path)),
            ("stage", .text(stage)),
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
