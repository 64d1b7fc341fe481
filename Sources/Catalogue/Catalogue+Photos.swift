import SQLite

extension CatalogueReader {
    /// The photo whose original has this SHA-256, if any.
    public func photo(hash: String) throws -> PhotoRecord? {
        try fetchAll(PhotoRecord.self, "WHERE hash = ?", [.text(hash)]).first
    }

    /// The photos whose id starts with `prefix` (case-insensitive), at most `limit` of them, in id order.
    public func photos(idPrefix prefix: String, limit: Int = 2) throws -> [PhotoRecord] {
        let (low, high) = CatalogueReader.idRange(prefix)
        return try fetchAll(PhotoRecord.self, "WHERE id >= ? AND id < ? ORDER BY id LIMIT ?", [.text(low), .text(high), .int(limit)])
    }

    /// How many photos have an id starting with `prefix` (case-insensitive).
    public func countPhotos(idPrefix prefix: String) throws -> Int {
        let (low, high) = CatalogueReader.idRange(prefix)
        return try database.query("SELECT COUNT(*) AS count FROM photos WHERE id >= ? AND id < ?",
                                  [.text(low), .text(high)]) { try $0["count"] as Int }.first ?? 0
    }

    /// The ids that start with `prefix` (case-insensitive) as a range of the primary key's index, `low <= id < high`,
    /// so a lookup by prefix reads only the matching entries. Ids are album's own ASCII (`PhotoRecord.id(forHash:)`), and
    /// every text that starts with `low` sorts below `low` followed by the largest code point (SQLite's BINARY
    /// order is UTF-8's, which is code point order).
    ///
    /// ```
    /// "9F3A" → ("9f3a", "9f3a\u{10FFFF}")
    /// ```
    static func idRange(_ prefix: String) -> (low: String, high: String) {
        let low = prefix.lowercased()
        return (low, low + "\u{10FFFF}")
    }

    /// The photo with exactly this id, if any.
    public func photo(id: String) throws -> PhotoRecord? {
        try fetchAll(PhotoRecord.self, "WHERE id = ?", [.text(id)]).first
    }

    /// The newest photo imported from `path`, if any.
    public func latestPhoto(path: String) throws -> PhotoRecord? {
        try fetchAll(PhotoRecord.self, "WHERE path = ? ORDER BY added DESC, rowid DESC LIMIT 1", [.text(paths.stored(path))]).first
    }

    /// Whether a newer version of its file replaces the photo (it is `superseded`), asked of one photo without
    /// reading the others.
    public func isSuperseded(photo id: String) throws -> Bool {
        try database.query("SELECT COUNT(*) AS count FROM photos WHERE replaces = ?", [.text(id)]) { try $0["count"] as Int }.first ?? 0 > 0
    }

    /// Whether `photo` is superseded: a newer version replaces it, or its own file now holds another photo's bytes
    /// (that photo's alias at its path, `PhotoRecord.supersededIDs`), or is another photo's second original.
    public func isSuperseded(_ photo: PhotoRecord) throws -> Bool {
        if try isSuperseded(photo: photo.id) { return true }
        let paired = try fetchAll(SecondOriginal.self, "WHERE path = ? AND photo != ?", [.text(paths.stored(photo.path)), .text(photo.id)])
        if !paired.isEmpty { return true }
        let there = try fetchAll(PhotoAlias.self, "WHERE path = ? AND photo != ?", [.text(paths.stored(photo.path)), .text(photo.id)])
        return PhotoRecord.displacedIDs([photo], aliases: there).contains(photo.id)
    }

    /// Every photo, newest added first (the gallery's order).
    public func allPhotos() throws -> [PhotoRecord] {
        try fetchAll(PhotoRecord.self, PhotoRecord.newestFirst)
    }

    /// Every photo in `allPhotos`' order, handed to `body` one at a time as it is read and then let go, so the
    /// caller's memory does not grow with the catalogue (`album ls`); `body` returns false to stop. `body` may look
    /// up other rows (`isSuperseded(_:)`, `aliases(photo:)`), but not call this again.
    public func forEachPhoto(_ body: (PhotoRecord) throws -> Bool) throws {
        try fetchEach(PhotoRecord.self, PhotoRecord.newestFirst, [], body)
    }

    /// Every photo's original path (the photo's, not its aliases'), in no order: only that column is read.
    public func photoPaths() throws -> [String] {
        try database.query("SELECT path FROM photos", []) { self.paths.resolved(try $0["path"] as String) }
    }
}

extension Catalogue {
    /// Adds a photo.
    public func insert(_ photo: PhotoRecord) throws {
        try insertRow(photo)
    }

    /// Records where a known original now is, and its stat, after it was found again.
    public func updateLocation(photo: String, path: String, mtimeNanoseconds: Int, inode: Int) throws {
        try database.run("UPDATE photos SET path = ?, mtime_ns = ?, inode = ? WHERE id = ?",
                         [.text(paths.stored(path)), .int(mtimeNanoseconds), .int(inode), .text(photo)])
    }

    /// Records that `photo`'s pixels could not be decoded, and why (`nil` clears it: `--retry-damaged` decoded them).
    public func setDamage(photo: String, reason: String?) throws {
        try database.run("UPDATE photos SET damage = ? WHERE id = ?", [.text(reason), .text(photo)])
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
            for id in ids { try forgetRow(photo: id) }
        }
    }

    /// Deletes one photo's row, inside the caller's transaction (`album prune`'s): its renditions' and aliases' rows
    /// go with it, and a version's `replaces` and its steps' `photo` that named it become NULL, as the schema says.
    public func forgetRow(photo id: String) throws {
        try database.run("DELETE FROM photos WHERE id = ?", [.text(id)])
    }

    /// Marks the photo as kept while its original is gone (`album prune --keep-missing`, `at` the time), or clears
    /// the mark (`at` nil: its original is back).
    public func setMissingKept(photo id: String, at time: String?) throws {
        try database.run("UPDATE photos SET missing_kept = ? WHERE id = ?", [.text(time), .text(id)])
    }
}

extension Catalogue {
    /// The columns a sidecar's facts fill (issue 32) and a video's header facts (issue 33), which `updateFacts` rewrites.
    static let factColumns = ["taken", "caption", "rating", "label", "keywords", "title", "sidecar", "sidecar_bytes",
                              "sidecar_mtime_ns", "sidecar_inode", "xmp_problem", "description",
                              // and a video's header facts, read again from the same bytes (schema 10)
                              "duration", "codec", "frame_rate", "latitude", "longitude", "has_gps"]

    /// Records `photo`'s XMP facts, its capture time and caption as they now stand, and the sidecar they were read
    /// with: a changed, added or removed sidecar changes these and nothing else (the photo's bytes, renditions and
    /// steps stay).
    public func updateFacts(_ photo: PhotoRecord) throws {
        var stored = photo
        stored.mapPaths(paths.stored)
        let values = stored.values.filter { Catalogue.factColumns.contains($0.column) }
        let assignments = values.map { "\($0.column) = ?" }.joined(separator: ", ")
        try database.run("UPDATE photos SET \(assignments) WHERE id = ?", values.map(\.value) + [.text(photo.id)])
    }
}
