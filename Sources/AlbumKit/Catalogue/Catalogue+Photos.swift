import SQLite

extension Catalogue {
    static let photoColumns = """
        id, hash, path, bytes, mtime_ns, inode, width, height, format, taken, added, caption, filter, \
        filter_recipe, camera, orientation, has_gps, replaces, stored_path
        """

    static func photo(from row: Row) -> PhotoRecord {
        PhotoRecord(
            id: row.text(0) ?? "", hash: row.text(1) ?? "", path: row.text(2) ?? "", bytes: row.int(3) ?? 0,
            mtimeNanoseconds: row.int(4) ?? 0, inode: row.int(5) ?? 0, width: row.int(6) ?? 0,
            height: row.int(7) ?? 0, format: row.text(8) ?? "", taken: row.text(9), added: row.text(10) ?? "",
            caption: row.text(11), filter: row.text(12) ?? "none", filterRecipe: row.text(13) ?? "[]",
            camera: row.text(14), orientation: row.int(15) ?? 1, hasGPS: (row.int(16) ?? 0) != 0,
            replaces: row.text(17), storedPath: row.text(18))
    }

    /// The photo whose original has this SHA-256, if any.
    public func photo(hash: String) throws -> PhotoRecord? {
        try database.query("SELECT \(Self.photoColumns) FROM photos WHERE hash = ?", [.text(hash)], Self.photo).first
    }

    /// The photos whose id starts with `prefix` (case-insensitive), at most `limit` of them, in id order.
    public func photos(idPrefix prefix: String, limit: Int = 2) throws -> [PhotoRecord] {
        let prefix = prefix.lowercased()
        return try database.query("SELECT \(Self.photoColumns) FROM photos WHERE substr(id, 1, ?) = ? ORDER BY id LIMIT ?",
                                  [.int(prefix.count), .text(prefix), .int(limit)], Self.photo)
    }

    /// How many photos have an id starting with `prefix` (case-insensitive).
    public func countPhotos(idPrefix prefix: String) throws -> Int {
        let prefix = prefix.lowercased()
        return try database.query("SELECT COUNT(*) FROM photos WHERE substr(id, 1, ?) = ?",
                                  [.int(prefix.count), .text(prefix)]) { $0.int(0) ?? 0 }.first ?? 0
    }

    /// The newest photo imported from `path`, if any.
    public func latestPhoto(path: String) throws -> PhotoRecord? {
        try database.query("SELECT \(Self.photoColumns) FROM photos WHERE path = ? ORDER BY added DESC, rowid DESC LIMIT 1",
                           [.text(path)], Self.photo).first
    }

    /// Every photo, newest added first (the gallery's order).
    public func allPhotos() throws -> [PhotoRecord] {
        try database.query("SELECT \(Self.photoColumns) FROM photos ORDER BY added DESC, rowid DESC", [], Self.photo)
    }

    /// Adds a photo.
    public func insert(_ photo: PhotoRecord) throws {
        try database.run("INSERT INTO photos (\(Self.photoColumns)) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", [
            .text(photo.id), .text(photo.hash), .text(photo.path), .int(photo.bytes), .int(photo.mtimeNanoseconds),
            .int(photo.inode), .int(photo.width), .int(photo.height), .text(photo.format), .text(photo.taken),
            .text(photo.added), .text(photo.caption), .text(photo.filter), .text(photo.filterRecipe),
            .text(photo.camera), .int(photo.orientation), .int(photo.hasGPS ? 1 : 0), .text(photo.replaces),
            .text(photo.storedPath),
        ])
    }

    /// Records where a known original now is, and its stat, after it was found again.
    public func updateLocation(photo: String, path: String, mtimeNanoseconds: Int, inode: Int) throws {
        try database.run("UPDATE photos SET path = ?, mtime_ns = ?, inode = ? WHERE id = ?",
                         [.text(path), .int(mtimeNanoseconds), .int(inode), .text(photo)])
    }

    /// Records the photo's applied filter: its name and resolved recipe (the current look).
    public func setFilter(photo: String, name: String, recipe: String) throws {
        try database.run("UPDATE photos SET filter = ?, filter_recipe = ? WHERE id = ?",
                         [.text(name), .text(recipe), .text(photo)])
    }

    /// Forgets photos: their rows and their renditions' rows, in one transaction. Their steps stay in the
    /// history with no photo (the schema sets `steps.photo` to NULL); photos that replaced them forget the link.
    /// Files are the caller's: remove them after this returns, so no row ever points at a deleted file.
    public func remove(photos ids: [String]) throws {
        try transaction {
            for id in ids { try database.run("DELETE FROM photos WHERE id = ?", [.text(id)]) }
        }
    }
}
