import SQLite
import Core

/// A second original is one row of `second_originals` (schema version 8, a table its declaration creates; `duration`
/// since 10): each column declared once, its path stored like `photos.path`.
extension SecondOriginal: TableRecord {
    package static let table = "second_originals"
    package static let since = 8

    package static let columns: [Column<SecondOriginal>] = [
        .column("photo", "TEXT NOT NULL REFERENCES photos(id) ON DELETE CASCADE", \.photo, since: 8),
        .column("path", "TEXT NOT NULL", \.path, since: 8, json: 1),
        .column("format", "TEXT NOT NULL", \.format, since: 8, json: 2),
        .column("hash", "TEXT NOT NULL", \.hash, since: 8, json: 3),
        .column("bytes", "INTEGER NOT NULL", \.bytes, since: 8, json: 4),
        .column("mtime_ns", "INTEGER NOT NULL", \.mtimeNanoseconds, since: 8),
        .column("inode", "INTEGER NOT NULL", \.inode, since: 8),
        .column("added", "TEXT NOT NULL", \.added, since: 8),
        .column("duration", "REAL", \.duration, since: 10, json: 5),
    ]
    package static let constraints = ["PRIMARY KEY (photo, path)"]
    package static let indexes = ["CREATE INDEX second_originals_path ON second_originals(path)"]

    package static let blank = SecondOriginal(photo: "", path: "", format: "", hash: "", bytes: 0, mtimeNanoseconds: 0,
                                              inode: 0, added: "")

    package mutating func mapPaths(_ transform: (String) -> String) {
        path = transform(path)
    }

    /// As `ls --json` and `show --json` print it in a photo's `second_originals`: path, format, hash, bytes, duration.
    public var json: JSONValue { .object(columnJSON) }
}
