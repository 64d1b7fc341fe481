import SQLite
import Core

/// A rendition is one row of `renditions` (its `id` is the table's own): each column read and written on one line.
extension Rendition: TableRecord {
    package static let table = "renditions"

    package init(row: Row) throws {
        photo = try row["photo"]
        kind = try row["kind"]
        parametersHash = try row["params_hash"]
        inputHash = try row["input_hash"]
        path = try row["path"]
        fileHash = try row["file_hash"]
        width = try row["width"]
        height = try row["height"]
        bytes = try row["bytes"]
        // NULL once its run is deleted (the schema says ON DELETE SET NULL); album deletes no run, but reads it as 0.
        run = try row["run"] as Int64? ?? 0
    }

    package var values: [(column: String, value: Value)] {
        [
            ("photo", .text(photo)),
            ("kind", .text(kind.rawValue)),
            ("params_hash", .text(parametersHash)),
            ("input_hash", .text(inputHash)),
            ("path", .text(path)),
            ("file_hash", .text(fileHash)),
            ("width", .int(width)),
            ("height", .int(height)),
            ("bytes", .int(bytes)),
            ("run", .integer(run)),
        ]
    }

    /// A rendition's path is stored relative to the catalogue (an export's when it lies under the folder's parent).
    package mutating func mapPaths(_ transform: (String) -> String) {
        path = transform(path)
    }
}

extension Rendition.Kind: CheckedText {
    public static let expectedText = StageName.expectedText
}
