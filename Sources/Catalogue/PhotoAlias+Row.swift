import SQLite

/// An alias is one row of `aliases` (schema version 5): each column declared once, its path stored like
/// `photos.path`.
extension PhotoAlias: TableRecord {
    package static let table = "aliases"

    package static let columns: [Column<PhotoAlias>] = [
        .column("photo", "TEXT NOT NULL REFERENCES photos(id) ON DELETE CASCADE", \.photo, since: 5),
        .column("path", "TEXT NOT NULL", \.path, since: 5),
        .column("bytes", "INTEGER NOT NULL", \.bytes, since: 5),
        .column("mtime_ns", "INTEGER NOT NULL", \.mtimeNanoseconds, since: 5),
        .column("inode", "INTEGER NOT NULL", \.inode, since: 5),
        .column("added", "TEXT NOT NULL", \.added, since: 5),
    ]
    package static let constraints = ["PRIMARY KEY (photo, path)"]

    package static let blank = PhotoAlias(photo: "", path: "", bytes: 0, mtimeNanoseconds: 0, inode: 0, added: "")

    package mutating func mapPaths(_ transform: (String) -> String) {
        path = transform(path)
    }
}
