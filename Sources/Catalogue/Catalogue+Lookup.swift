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

/// The photos of a catalogue that are not current, as a run or a plan finds them when it begins
/// (`CatalogueReader.notCurrent()`): what a lookup needs beside a photo's own row to decide whether it is current.
package struct NotCurrent: Sendable {
    /// Every photo that is not current (`PhotoRecord.supersededIDs`).
    package var superseded: Set<String> = []
    /// Those superseded only because their path is another photo's second original (`PhotoRecord.pairedIDs`, and
    /// no newer version replaces them): import makes such a photo current again when it finds its bytes there.
    package var pairedAway: Set<String> = []

    package init() {}
}

/// The lookups a run and a plan make of the catalogue as it was when they began (`CatalogueSnapshot`), one photo
/// or one path at a time, each an indexed query prepared once per connection (`Database.query` keeps them): nothing
/// is loaded whole, so memory does not grow with the catalogue.
///
/// A photo is current when no photo `replaces` it, its path is no other photo's second original, and no other
/// photo's alias at its path holds its file now (`PhotoRecord.supersededIDs`). Only photos that some other row
/// names that way can be anything but current, so those few are read once as a run begins (`notCurrent()`), with
/// their files' stat where an alias decides, and every lookup after that is the photo's own row and a set.
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

    /// The photos that are not current now: those a newer version replaces, those at another photo's second
    /// original's path, and those at another photo's alias's path whose file holds that photo's bytes (stat-ed
    /// here, once). Its cost follows those rows (`photos_replaces`, and the aliases and second originals tables,
    /// each joined to `photos_path`), never the number of photos.
    package func notCurrent() throws -> NotCurrent {
        var found = NotCurrent()
        try lookUp("""
            WHERE p.id IN (SELECT replaces FROM photos WHERE replaces IS NOT NULL
                           UNION SELECT q.id FROM second_originals s JOIN photos q ON q.path = s.path AND q.id != s.photo
                           UNION SELECT q.id FROM aliases a JOIN photos q ON q.path = a.path AND q.id != a.photo)
            """, []) { photo in
            if try !isCurrent(photo) { found.superseded.insert(photo.photo.id) }
            if photo.paired, !photo.replaced { found.pairedAway.insert(photo.photo.id) }
            return true
        }
        return found
    }

    /// The photos recorded at `path`, newest added first.
    package func photos(atPath path: String) throws -> [PhotoRecord] {
        // `ORDER BY added DESC, rowid DESC`, sorted here (no sorter per lookup).
        try fetchAllInRowOrder(PhotoRecord.self, "WHERE path = ?", [.text(paths.stored(path))], newestFirst: true, by: { $0.added > $1.added })
    }

    /// The stat recorded for each photo at `path`, with its id, newest added first: what a plan's first look at a
    /// file needs (is it unchanged?) without reading the whole row.
    package func recordedFiles(atPath path: String) throws -> [(id: String, file: StatRecord)] {
        try database.query("SELECT id, bytes, mtime_ns, inode FROM photos WHERE path = ? ORDER BY added DESC, rowid DESC",
                           [.text(paths.stored(path))]) { row in
            (try row["id"] as String, StatRecord(path: path, bytes: try row["bytes"] as Int,
                                                 mtimeNanoseconds: try row["mtime_ns"] as Int, inode: try row["inode"] as Int))
        }
    }

    /// The photos with these ids, newest added first (a distributed chunk's share, `json_each` over the ids).
    package func photos(ids: [String], _ body: (PhotoRecord) throws -> Void) throws {
        guard !ids.isEmpty else { return }
        let list = "[" + ids.map { "\"" + $0.filter { $0 != "\"" && $0 != "\\" } + "\"" }.joined(separator: ",") + "]"
        try fetchEach(PhotoRecord.self, "WHERE id IN (SELECT value FROM json_each(?)) ORDER BY added DESC, rowid DESC", [.text(list)]) {
            try body($0)
            return true
        }
    }

    /// Every photo's id, newest added first (`PhotoRecord.newestFirst`, through `photos_added`): a walk of one
    /// column, none kept.
    package func forEachPhotoID(_ body: (String) throws -> Void) throws {
        try database.forEach("SELECT id FROM photos ORDER BY added DESC, rowid DESC") { row in
            try body(try row["id"] as String)
            return true
        }
    }

    /// Every photo's id, path and size, in no order (of the rows in `rowids` alone, when given): a walk of three
    /// columns, none kept.
    package func forEachPhotoKey(rowids: ClosedRange<Int64>? = nil, _ body: (_ id: String, _ path: String, _ bytes: Int) throws -> Void) throws {
        let paths = self.paths
        let (clause, arguments): (String, [Value]) = rowids.map { (" WHERE rowid BETWEEN ? AND ?", [.integer($0.lowerBound), .integer($0.upperBound)]) } ?? ("", [])
        try database.forEach("SELECT id, path, bytes FROM photos" + clause, arguments) { row in
            try body(try row["id"] as String, paths.resolved(try row["path"] as String), try row["bytes"] as Int)
            return true
        }
    }

    /// The smallest and the largest rowid of `photos`; nil when it has no row (the parts of a walk in ranges).
    package func photoRowids() throws -> ClosedRange<Int64>? {
        try database.query("SELECT min(rowid), max(rowid) FROM photos") { row -> ClosedRange<Int64>? in
            guard let low = row.integer(at: 0), let high = row.integer(at: 1) else { return nil }
            return Int64(low)...Int64(high)
        }.first ?? nil
    }

    /// Every photo, newest added first, one at a time; `body` returns false to stop.
    package func forEachPhotoNewestFirst(_ body: (PhotoRecord) throws -> Bool) throws {
        try fetchEach(PhotoRecord.self, "ORDER BY added DESC, rowid DESC", [], body)
    }

    /// The photos recorded at `path`, newest added first, with their currency's facts.
    package func lookedUpPhotos(path: String) throws -> [LookedUpPhoto] {
        var found: [LookedUpPhoto] = []
        try lookUp("WHERE p.path = ? ORDER BY p.added DESC, p.rowid DESC", [.text(paths.stored(path))]) { found.append($0); return true }
        return found
    }

    /// The photo with this id, if any, with its currency's facts.
    package func lookedUpPhoto(id: String) throws -> LookedUpPhoto? {
        var found: LookedUpPhoto?
        try lookUp("WHERE p.id = ?", [.text(id)]) { found = $0; return false }
        return found
    }

    /// The aliases recorded at `path`, oldest first (`allAliases`' order, which `aliases(path:)` does not keep).
    package func aliases(atPath path: String) throws -> [PhotoAlias] {
        try fetchAll(PhotoAlias.self, "WHERE path = ? ORDER BY added, rowid", [.text(paths.stored(path))])
    }

    /// Whether any alias is recorded (one indexed step, whatever the table's size).
    package func hasAliases() throws -> Bool {
        try database.query("SELECT EXISTS (SELECT 1 FROM aliases)") { $0.int(0) }.first == 1
    }

    /// Whether this connection reads through a write-ahead log: a lookup connection's reads are then one snapshot
    /// (`lookupConnection`).
    package var isWAL: Bool {
        get throws { try database.query("PRAGMA journal_mode") { $0.text(0) }.first == "wal" }
    }

    /// Whether this connection is a distributed chunk's view (`Catalogue.forChunk`: its own log, in exclusive
    /// locking mode), which no second connection may open: its lookups go through the chunk's writer.
    package var isChunkView: Bool {
        get throws { try database.query("PRAGMA locking_mode") { $0.text(0) }.first == "exclusive" }
    }

    /// A second connection to this catalogue for a run's or a plan's lookups (`CatalogueSnapshot`), in a read
    /// transaction begun now, so every lookup sees the catalogue as it is at this call, whatever is written after.
    ///
    /// In WAL mode (every catalogue a writer opened) the transaction is a snapshot of the log's end at its first read,
    /// and the run's own writer commits beside it. While it is open a checkpoint copies into the database file only
    /// the frames before that point and never restarts the log: the `-wal` grows by what the run writes until the
    /// run ends (a no-op rerun writes its run rows only; a first import of N photos about what the catalogue grows).
    /// A database with a rollback journal cannot keep a reader's snapshot while its writer commits (the writer's
    /// lock would wait for the reader): there the lookups read the file as it is, each statement on its own.
    /// A chunk's view (`isChunkView`) is never opened twice: its snapshot reads through the chunk's writer.
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

/// A file's recorded stat alone (`CatalogueReader.recordedFiles(atPath:)`).
package struct StatRecord: RecordedFile, Sendable {
    package var path: String
    package var bytes: Int
    package var mtimeNanoseconds: Int
    package var inode: Int
}
