import SQLite

/// A photo is one row of `photos`: each column read and written on one line, in the schema's order.
extension PhotoRecord: TableRecord {
    package static let table = "photos"

    package init(row: Row) throws {
        id = try row["id"]
        hash = try row["hash"]
        path = try row["path"]
        bytes = try row["bytes"]
        mtimeNanoseconds = try row["mtime_ns"]
        inode = try row["inode"]
        width = try row["width"]
        height = try row["height"]
        format = try row["format"]
        taken = try row["taken"]
        added = try row["added"]
        caption = try row["caption"]
        filter = try row["filter"]
        filterRecipe = try row["filter_recipe"]
        camera = try row["camera"]
        orientation = try row["orientation"]
        hasGPS = try row["has_gps"]
        replaces = try row["replaces"]
        storedPath = try row["stored_path"]
        damage = try row["damage"]
        missingKept = try row["missing_kept"]
    }

    package var values: [(column: String, value: Value)] {
        [
            ("id", .text(id)),
            ("hash", .text(hash)),
            ("path", .text(path)),
            ("bytes", .int(bytes)),
            ("mtime_ns", .int(mtimeNanoseconds)),
            ("inode", .int(inode)),
            ("width", .int(width)),
            ("height", .int(height)),
            ("format", .text(format)),
            ("taken", .text(taken)),
            ("added", .text(added)),
            ("caption", .text(caption)),
            ("filter", .text(filter)),
            ("filter_recipe", .text(filterRecipe)),
            ("camera", .text(camera)),
            ("orientation", .int(orientation)),
            ("has_gps", .int(hasGPS ? 1 : 0)),
            ("replaces", .text(replaces)),
            ("stored_path", .text(storedPath)),
            ("damage", .text(damage)),
            ("missing_kept", .text(missingKept)),
        ]
    }

    /// The original's path is stored relative to the catalogue when it lies under the folder's parent.
    package mutating func mapPaths(_ transform: (String) -> String) {
        path = transform(path)
    }
}
