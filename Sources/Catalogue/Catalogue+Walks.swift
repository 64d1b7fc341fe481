import SQLite

/// Rows read one at a time, or a photo's own rows by index, for the commands that walk the whole catalogue (`verify`)
/// without holding it: memory that does not grow with the library (issue 34).
extension CatalogueReader {
    /// Every rendition with its row id, in id order (`renditions(kind: nil)`'s), handed to `body` one at a time as it
    /// is read, none kept; `body` returns false to stop, and may look up other rows. With `ofNoPhoto`, only the
    /// renditions whose photo is not in the catalogue (rows that point nowhere).
    public func forEachRendition(ofNoPhoto: Bool = false, _ body: (_ id: Int64, _ rendition: Rendition) throws -> Bool) throws {
        let paths = self.paths
        let clause = ofNoPhoto ? "WHERE photo NOT IN (SELECT id FROM photos) ORDER BY id" : "ORDER BY id"
        try database.forEach("SELECT * FROM \(Rendition.table) \(clause)", []) { row in
            var rendition = try Rendition(row: row)
            rendition.mapPaths(paths.resolved)
            return try body(try row["id"] as Int64, rendition)
        }
    }

    /// The renditions of `photo` with their row ids, in id order.
    public func renditionRows(photo: String) throws -> [(id: Int64, rendition: Rendition)] {
        let paths = self.paths
        return try database.query("SELECT * FROM \(Rendition.table) WHERE photo = ? ORDER BY id", [.text(photo)]) { row in
            var rendition = try Rendition(row: row)
            rendition.mapPaths(paths.resolved)
            return (try row["id"] as Int64, rendition)
        }
    }

    /// The renditions a run was replacing when it stopped (`Rendition.isBeingWritten`), in id order.
    public func renditionsBeingWritten() throws -> [Rendition] {
        try fetchAll(Rendition.self, "WHERE bytes = ? ORDER BY id", [.integer(Int64(Rendition.beingWritten))])
    }

    /// The runs that wrote a rendition of `photo` (or are rewriting one), each once.
    public func renditionRuns(photo: String) throws -> [Int64] {
        try database.query("SELECT DISTINCT run FROM renditions WHERE photo = ?", [.text(photo)]) { try $0["run"] as Int64 }
    }

    /// The id and `added` of every photo whose id sorts after `after` (every photo when nil), in id order (the
    /// primary key's), handed to `body` one at a time; `body` returns false to stop, and may look up other rows.
    public func forEachPhotoID(after: String?, _ body: (_ id: String, _ added: String) throws -> Bool) throws {
        try database.forEach("SELECT id, added FROM photos WHERE id > ? ORDER BY id", [.text(after ?? "")]) { row in
            try body(try row["id"] as String, try row["added"] as String)
        }
    }

    /// The photo's place in `allPhotos`' order (newest added first): its `added` and row id, the larger first.
    public func newestFirstPlace(photo id: String) throws -> (added: String, rowid: Int64)? {
        try database.query("SELECT added, rowid FROM photos WHERE id = ?", [.text(id)]) {
            (try $0["added"] as String, try $0["rowid"] as Int64)
        }.first
    }

    /// Every rendition of `kind` in id order, handed to `body` one at a time as it is read, none kept; `body`
    /// returns false to stop.
    public func forEachRendition(kind: Rendition.Kind, _ body: (Rendition) throws -> Bool) throws {
        try fetchEach(Rendition.self, "WHERE kind = ? ORDER BY id", [.text(kind.rawValue)], body)
    }

    /// Every file a row names, for `album gc`, handed to `body` one at a time as it is read: each rendition's path
    /// (resolved, with no copy), then each photo's original path (resolved) with its copy (`stored_path`, relative
    /// to the catalogue folder, as stored), if any. Only those columns are read.
    public func forEachRecordedPath(_ body: (_ path: String, _ copy: String?) throws -> Void) throws {
        let paths = self.paths
        try database.forEach("SELECT path FROM renditions", []) { row in
            try body(paths.resolved(try row["path"] as String), nil)
            return true
        }
        try database.forEach("SELECT path, stored_path FROM photos", []) { row in
            try body(paths.resolved(try row["path"] as String), try row["stored_path"] as String?)
            return true
        }
    }

    /// The damaged photos that no newer version replaces (`PhotoRecord.current(allPhotos())` of those with `damage`),
    /// newest added first; SQLite picks them (`photos_replaces`), so no other photo is read.
    public func currentDamagedPhotos() throws -> [PhotoRecord] {
        try fetchAll(PhotoRecord.self, "WHERE damage IS NOT NULL AND id NOT IN (SELECT replaces FROM photos WHERE replaces IS NOT NULL) "
                     + PhotoRecord.newestFirst)
    }

    /// The photos no other photo `replaces` (the newest of each version chain), or with `replaced`, those a newer
    /// version replaces, in `allPhotos`' order, handed to `body` one at a time; SQLite picks them (`photos_replaces`).
    public func forEachPhoto(replaced: Bool, _ body: (PhotoRecord) throws -> Bool) throws {
        try fetchEach(PhotoRecord.self, "WHERE id \(replaced ? "IN" : "NOT IN") (SELECT replaces FROM photos WHERE replaces IS NOT NULL) "
                      + PhotoRecord.newestFirst, [], body)
    }

    /// Every alias in `allAliases`' order, handed to `body` one at a time; `body` returns false to stop.
    public func forEachAlias(_ body: (PhotoAlias) throws -> Bool) throws {
        try fetchEach(PhotoAlias.self, "ORDER BY added, rowid", [], body)
    }

    /// Every second original in `allSecondOriginals`' order, handed to `body` one at a time; `body` returns false to stop.
    public func forEachSecondOriginal(_ body: (SecondOriginal) throws -> Bool) throws {
        try fetchEach(SecondOriginal.self, "ORDER BY added, rowid", [], body)
    }
}
