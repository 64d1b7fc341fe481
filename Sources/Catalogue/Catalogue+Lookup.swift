import SQLite
import System

/// A photo as the run-start lookups read it: the row, and what its currency depends on beside it.
package struct LookedUpPhoto {
    package var photo: PhotoRecord
    /// A newer version `replaces` it.
    package var replaced: Bool
    /// Its own path is recorded as another photo's second original (`PhotoRecord.pairedIDs`).
    package var paired: Bool
    /// Another photo has an alias at its path: then its file's stat decides (`PhotoRecord.displacedIDs`).
    package var aliased: Bool
}

/// The lookups a run and a plan make of the catalogue as it was when they began (`CatalogueSnapshot`), one photo
/// or one path at a time, each an indexed query prepared once per connection (`Database.query` keeps them): nothing
/// is loaded whole, so memory does not grow with the catalogue.
///
/// A photo is current when no photo `replaces` it, its path is no other photo's second original, and no other
/// photo's alias at its path holds its file now (`PhotoRecord.supersededIDs`, the same rule row by row): the first two
/// are asked in SQL beside the row (`photos_replaces`, `second_originals_path`), the third stats the file only when
/// such an alias exists (`aliases_path`).
extension CatalogueReader {
    /// The photo columns and the three facts its currency needs, for `LookedUpPhoto`.
    private static let lookedUp = """
        SELECT p.*, EXISTS (SELECT 1 FROM photos r WHERE r.replaces = p.id) AS look_replaced,
               EXISTS (SELECT 1 FROM second_originals s WHERE s.path = p.path AND s.photo != p.id) AS look_paired,
               EXISTS (SELECT 1 FROM aliases a WHERE a.path = p.path AND a.photo != p.id) AS look_aliased
        FROM photos p
        """

    private func lookUp(_ clause: String, _ arguments: [Value], _ body: (LookedUpPhoto) throws -> Bool) throws {
        let paths = self.paths
        try database.forEach(CatalogueReader.lookedUp + " " + clause, arguments) { row in
            var photo = try PhotoRecord(row: row)
            photo.mapPaths(paths.resolved)
            return try body(LookedUpPhoto(photo: photo, replaced: try row["look_replaced"] as Int != 0,
                                          paired: try row["look_paired"] as Int != 0, aliased: try row["look_aliased"] as Int != 0))
        }
    }

    /// Whether `found` is current (`PhotoRecord.current`, for this one row).
    package func isCurrent(_ found: LookedUpPhoto) throws -> Bool {
        if found.replaced || found.paired { return false }
        guard found.aliased else { return true }
        let there = try fetchAll(PhotoAlias.self, "WHERE path = ? AND photo != ?", [.text(paths.stored(found.photo.path)), .text(found.photo.id)])
        return !PhotoRecord.displacedIDs([found.photo], aliases: there).contains(found.photo.id)
    }

    /// Every photo, newest added first (`allPhotos`' order), with its currency's facts, one at a time; `body`
    /// returns false to stop. `body` may run the other lookups, not this one.
    package func forEachLookedUpPhoto(_ body: (LookedUpPhoto) throws -> Bool) throws {
        try lookUp("ORDER BY p.added DESC, p.rowid DESC", [], body)  // `PhotoRecord.newestFirst`, through `photos_added`
    }

    /// The photos recorded at `path`, newest added first.
    package func lookedUpPhotos(path: String) throws -> [LookedUpPhoto] {
        var found: [LookedUpPhoto] = []
        try lookUp("WHERE p.path = ? ORDER BY p.added DESC, p.rowid DESC", [.text(paths.stored(path))]) { found.append($0); return true }
        return found
    }

    /// The photo with this id, if any.
    package func lookedUpPhoto(id: String) throws -> LookedUpPhoto? {
        var found: LookedUpPhoto?
        try lookUp("WHERE p.id = ?", [.text(id)]) { found = $0; return false }
        return found
    }

    /// The photo with this hash, if any.
    package func lookedUpPhoto(hash: String) throws -> LookedUpPhoto? {
        var found: LookedUpPhoto?
        try lookUp("WHERE p.hash = ?", [.text(hash)]) { found = $0; return false }
        return found
    }

    /// The aliases recorded at `path`, oldest first (`allAliases`' order, which `aliases(path:)` does not keep).
    package func aliases(atPath path: String) throws -> [PhotoAlias] {
        try fetchAll(PhotoAlias.self, "WHERE path = ? ORDER BY added, rowid", [.text(paths.stored(path))])
    }

    /// A second connection to this catalogue for a run's or a plan's lookups (`CatalogueSnapshot`), in a read
    /// transaction begun now, so every lookup sees the catalogue as it is at this call, whatever is written after.
    ///
    /// In WAL mode (every catalogue a writer opened) the transaction is a snapshot of the log's end at its first read,
    /// and the run's own writer commits beside it. While it is open a checkpoint copies into the database file only
    /// the frames before that point and never restarts the log: the `-wal` grows by what the run writes until the
    /// run ends (a no-op rerun writes its run rows only; a first import of N photos about what the catalogue grows).
    /// A database with a rollback journal (a distributed chunk's, `forChunk`) cannot keep a reader's snapshot while
    /// its writer commits (the writer's lock would wait for the reader): there the lookups read the file as it is,
    /// each statement on its own.
    package func lookupConnection() throws -> CatalogueReader {
        let file = self.database.path
        let wal = try self.database.query("PRAGMA journal_mode") { $0.text(0) }.first == "wal"
        let connection = try Database(path: file, mode: isReadOnly ? (wal ? .readOnly : .readOnlyImmutable) : .readWrite)
        do {
            connection.setBusyTimeout(milliseconds: 5_000)
            try connection.skipCheckpointOnClose()
            if !isReadOnly { try connection.setQueryOnly() }
            if wal {
                try connection.execute("BEGIN")
                _ = try connection.query("SELECT COUNT(*) FROM runs") { $0.int(0) }  // the snapshot begins at the first read
            }
        } catch {
            connection.close()
            throw error
        }
        return CatalogueReader(folder: folder, Opened(database: connection, readOnly: isReadOnly, checkedInFull: checkedInFull))
    }
}
