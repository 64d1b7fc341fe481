import SQLite
import Core

/// A step is one row of `steps` (`id` and `at` are the table's own): each column declared once.
extension StepRecord: TableRecord {
    package static let table = "steps"

    package static let columns: [Column<StepRecord>] = [
        .filled("id", "INTEGER PRIMARY KEY"),
        .column("run", "INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE", \.run),
        .column("photo", "TEXT REFERENCES photos(id) ON DELETE SET NULL", \.photo),
        .column("path", "TEXT NOT NULL", \.path),
        .column("stage", "TEXT NOT NULL", \.stage),
        .column("params", "TEXT NOT NULL", \.parameters, reading: { row, name in try StepRecord.checkedParameters(try row[name]) }),
        .column("input_hash", "TEXT", \.inputHash),
        .column("output_hash", "TEXT", \.outputHash),
        .column("ms", "REAL NOT NULL", \.milliseconds),
        .column("status", "TEXT NOT NULL CHECK (status IN ('done', 'skipped', 'failed'))", \.status),
        .column("error", "TEXT", \.error),
        .filled("at", "TEXT DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))", since: 2),
    ]

    package static let blank = StepRecord(run: 0, photo: nil, path: "", stage: .import, parameters: "", inputHash: nil, outputHash: nil,
                                  milliseconds: 0, status: .done, error: nil)

    /// A step's `params` as album wrote them, a JSON object (or `null`, which a failed step whose recipe could not
    /// be read records): any other text is damage, an error naming the table and the column, never parameters shown
    /// as if they were a step's.
    static func checkedParameters(_ text: String) throws -> String {
        switch JSONValue(parsing: text) {
        case .object?, .null?:
            return text
        default:
            let shown = text.count > 60 ? text.prefix(60) + "…" : Substring(text)
            throw SQLiteError.mismatch("table steps: column params holds text that is not a JSON object: '\(shown)'")
        }
    }
}

extension StageName: CheckedText, Field {
    public static let expectedText = "a name: lowercase letters, digits and hyphens, starting with a letter"
}
extension StepRecord.Status: ColumnValue, Field {}
