import SQLite
import Core

/// A rendition is one row of `renditions` (`id` is the table's own): each column declared once, with its place in the
/// rendition's JSON (`Rendition+JSON`; `photo` is not shown there, the photo holds it).
extension Rendition: TableRecord {
    package static let table = "renditions"

    package static let columns: [Column<Rendition>] = [
        .filled("id", "INTEGER PRIMARY KEY"),
        .column("photo", "TEXT NOT NULL REFERENCES photos(id) ON DELETE CASCADE", \.photo),
        .column("kind", "TEXT NOT NULL", \.kind, json: 1),
        .column("params_hash", "TEXT NOT NULL", \.parametersHash, json: 7),
        .column("input_hash", "TEXT NOT NULL", \.inputHash, json: 8),
        .column("path", "TEXT NOT NULL", \.path, json: 2),
        .column("file_hash", "TEXT NOT NULL", \.fileHash, json: 3),
        .column("width", "INTEGER NOT NULL", \.width, json: 4),
        .column("height", "INTEGER NOT NULL", \.height, json: 5),
        .column("bytes", "INTEGER NOT NULL", \.bytes, json: 6),
        // NULL once its run is deleted (the schema says ON DELETE SET NULL); album deletes no run, but reads it as 0.
        .column("run", "INTEGER REFERENCES runs(id) ON DELETE SET NULL", \.run, json: 9,
                reading: { row, name in try row[name] as Int64? ?? 0 }),
    ]
    package static let constraints = ["UNIQUE (photo, kind, path)"]
    /// A rendition looked up by its file (`renditions(path:)`, `isRecorded(path:)`, `photos(recording:)`: export's
    /// ownership check, `rm`), and `run` set to NULL when its run is deleted (`album prune --history`).
    package static let addedIndexes = [TableIndex("renditions_path", on: "renditions(path)", since: 9),
                                       TableIndex("renditions_run", on: "renditions(run)", since: 9)]

    package static let blank = Rendition(photo: "", kind: .thumbnail, parametersHash: "", inputHash: "", path: "", fileHash: "",
                                 width: 0, height: 0, bytes: 0, run: 0)

    package mutating func mapPaths(_ transform: (String) -> String) {
        path = transform(path)
    }
}

extension Rendition.Kind: CheckedText, Field {
    public static let expectedText = StageName.expectedText
}
