import SQLite
import Core

/// A step is one row of `steps` (`id` and `at` are the table's own): each column read and written on one line.
extension StepRecord: TableRecord {
    package static let table = "steps"

    package init(row: Row) throws {
        run = try row["run"]
        photo = try row["photo"]
        path = try row["path"]
        stage = try row["stage"]
        parameters = try StepRecord.checkedParameters(try row["params"])
        inputHash = try row["input_hash"]
        outputHash = try row["output_hash"]
        milliseconds = try row["ms"]
        status = try row["status"]
        error = try row["error"]
    }

    /// A step's `params` as album wrote them, a JSON object (or `null`, which a failed step whose recipe could not
    /// be read records): any other text is damage, an error naming the table and the column, never parameters shown
    /// as if they were a step's.
    package static func checkedParameters(_ text: String) throws -> String {
        switch JSONValue(parsing: text) {
        case .object?, .null?:
            return text
        default:
            let shown = text.count > 60 ? text.prefix(60) + "…" : Substring(text)
            throw SQLiteError.mismatch("table steps: column params holds text that is not a JSON object: '\(shown)'")
        }
    }

    package var values: [(column: String, value: Value)] {
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

extension StageName: CheckedText {
    public static let expectedText = "a name: lowercase letters, digits and hyphens, starting with a letter"
}
extension StepRecord.Status: ColumnValue {}
