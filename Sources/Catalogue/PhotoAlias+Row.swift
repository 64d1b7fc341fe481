import SQLite

/// An alias is one row of `aliases`: each column read and written on one line, in the schema's order.
extension PhotoAlias: TableRecord {
    package static let table = "aliases"

    package init(row: Row) throws {
        photo = try row["photo"]
        path = try row["path"]
        bytes = try row["bytes"]
        mtimeNanoseconds = try row["mtime_ns"]
        inode = try row["inode"]
        added = try row["added"]
    }

    package var values: [(column: String, value: Value)] {
        [
            ("photo", .text(photo)),
            ("path", .text(path)),
            ("bytes", .int(bytes)),
            ("mtime_ns", .int(mtimeNanoseconds)),
            ("inode", .int(inode)),
            ("added", .text(added)),
        ]
    }

    /// Stored like the photo's own path: relative to the catalogue when it lies under the folder's parent.
    package mutating func mapPaths(_ transform: (String) -> String) {
        path = transform(path)
    }
}
