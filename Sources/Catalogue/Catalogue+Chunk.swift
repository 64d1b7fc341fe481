import SQLite
import System
import Core

/// A distributed run's chunk catalogue (docs/distributed.md): the catalogue folder's files, with a database of the
/// chunk's own, `chunk-K.view.db` in the run folder: **a view of the catalogue as planned**, a hard link to
/// `catalogue.db` itself (or, when the run kept one, to its `snapshot.db`; no byte copied) read through a write-ahead
/// log of the chunk's own, `chunk-K.view.db-wal`, which is
/// never checkpointed into the shared file (`Database.Mode.ownLog`). The chunk's scheduler reads and writes it
/// exactly as a one-machine run does the catalogue, so the chunk follows the one-machine rules; what it writes
/// lands in its log only, and `compactChunk` turns that into its delta, `chunk-K.db`, which `album merge` carries
/// into the catalogue.
///
/// The view takes no file lock (SQLite's `unix-none` VFS: every chunk's view is the same file) and keeps the log's
/// index in its own memory (exclusive locking mode), so it needs no shared memory, which a network file system does
/// not give. Its caller holds the chunk's lock (`chunk-K.lock`), not the catalogue's: that lock is what keeps a
/// second process off the view.
extension Catalogue {
    /// Opens chunk `view` for writing, first linking it to `seed` (`catalogue.db` or the run's snapshot, a WAL-mode file nobody
    /// writes) when it does not exist yet. Where the file system has no hard links, the view is a copy of the
    /// seed instead (`VACUUM INTO` a temporary name, renamed into place). Runs recorded as `running` are marked
    /// `interrupted`: the caller's chunk lock proves nobody runs them.
    /// - Parameter checked: the seed is `catalogue.db` read in place, which the planner's writer checked whole at
    ///   open (or found unchanged since the last writer that did), and the caller has just found it the file the
    ///   planner left (its size, inode and mtime): the view is then not checked again (`PRAGMA quick_check` reads
    ///   the whole catalogue: at 10^5 photos more than half of a no-op chunk's time, in every chunk). Any other seed
    ///   (the run's snapshot, a copy made without hard links) is checked whole here.
    public static func forChunk(folder: String, view file: String, seed: String, checked: Bool = false) throws -> Catalogue {
        let folder = Paths.absolute(folder)
        if !FileSystem.exists(file) {
            try? FileSystem.remove(file + "-wal")  // a log without its view: a view removed by hand
            do {
                try FileSystem.hardLink(seed, to: file)
            } catch {
                try copyView(of: seed, to: file, because: error)
            }
        }
        var opened: Database?
        do {
            let database = try openView(file, writing: true)
            opened = database
            // The view must be the seed itself (a hard link), not a copy of it made where links are refused.
            let (view, seeded) = (FileStatus.of(file), FileStatus.of(seed))
            let linked = view != nil && view?.device == seeded?.device && view?.inode == seeded?.inode
            let checkHere = !checked || !linked
            if checkHere, let problem = try damage(of: database) { throw damaged(file, problem) }
            try database.execute("PRAGMA foreign_keys = ON")
            try database.execute("PRAGMA synchronous = FULL")
            try database.execute((["BEGIN"] + chunkTouchLog + ["COMMIT"]).joined(separator: ";\n"))
            try Schema.check(database, folder: folder)
            try database.run("UPDATE runs SET status = 'interrupted' WHERE status = 'running'")
            return Catalogue(writing: folder, Opened(database: database, sound: true, checkedInFull: checkHere))
        } catch {
            opened?.close()
            if let error = error as? SQLiteError {
                throw CatalogueError("cannot open chunk catalogue \(file): \(error.message)")
            }
            throw error
        }
    }

    /// Opens the chunk view `file` through its own log (`Database.Mode.ownLog`): exclusive locking mode first, so
    /// SQLite keeps the log's index in memory, then the WAL journal (the seed is a WAL-mode file, so this writes
    /// nothing to it) with no automatic checkpoint.
    static func openView(_ file: String, writing: Bool) throws -> Database {
        let database = try Database(path: file, mode: .ownLog(writing: writing))
        do {
            database.setBusyTimeout(milliseconds: 5_000)
            _ = try database.query("PRAGMA locking_mode = EXCLUSIVE") { $0.text(0) }
            let journal = try database.query("PRAGMA journal_mode") { $0.text(0) }.first ?? nil
            guard journal == "wal" else {
                throw CatalogueError("chunk catalogue \(file) is not a WAL-mode view of its run's catalogue (journal mode \(journal ?? "unknown")); plan the run again with this album")
            }
            if writing { _ = try database.query("PRAGMA wal_autocheckpoint = 0") { $0.int(0) } }
            return database
        } catch {
            database.close()
            throw error
        }
    }

    /// The view as a copy of `seed`, for a file system without hard links (`why`): made under a temporary name,
    /// in WAL mode, and renamed into place, so a chunk killed while copying leaves no half view.
    private static func copyView(of seed: String, to file: String, because why: SystemError) throws {
        let partial = file + ".partial"
        try? FileSystem.remove(partial)
        do {
            let snapshot = try Database(path: seed, mode: .readOnlyImmutable)
            defer { snapshot.close() }
            try snapshot.run("VACUUM INTO ?", [.text(partial)])
            let made = try Database(path: partial, mode: .readWrite)
            defer { made.close() }
            _ = try made.query("PRAGMA journal_mode = WAL") { $0.text(0) }
        } catch let error as SQLiteError {
            throw CatalogueError("cannot make chunk catalogue \(file) from snapshot \(seed) (no hard link: \(why.description)): \(error.message)")
        }
        do {
            try FileSystem.rename(partial, to: file)
        } catch {
            throw CatalogueError("cannot make chunk catalogue \(file): \(error.description)")
        }
    }

    /// The photos a chunk wrote rows of, `chunk_touched`, kept by triggers in the chunk's database in the same
    /// transactions as the rows: `album merge` compares and carries only these photos' rows (its cost is the chunk's
    /// share, never the catalogue's size), and `compactChunk` keeps only them. A photo is touched by a write to its
    /// row, its renditions, its aliases or its second originals, whatever the statement.
    ///
    /// Before a photo's first write, other triggers copy its rows as the chunk found them (every one of the four
    /// tables) into `chunk_base_photos`, `chunk_base_renditions`, `chunk_base_aliases` and
    /// `chunk_base_second_originals`: the base of the merge's three-way comparison, carried in the delta, since the
    /// file the chunk read (the catalogue itself, read in place) is written by the merge.
    static let chunkTouchLog: [String] = {
        var statements = ["CREATE TABLE IF NOT EXISTS chunk_touched (photo TEXT PRIMARY KEY) WITHOUT ROWID"]
        let tables = [("photos", "id"), ("renditions", "photo"), ("aliases", "photo"), ("second_originals", "photo")]
        for (table, _) in tables {
            statements.append("CREATE TABLE IF NOT EXISTS chunk_base_\(table) AS SELECT * FROM \(table) WHERE 0")
        }
        for (table, key) in tables {
            for (event, rows) in [("INSERT", ["NEW"]), ("UPDATE", ["NEW", "OLD"]), ("DELETE", ["OLD"])] {
                for row in rows {
                    let photo = "\(row).\(key)"
                    let copies = tables.map { base, baseKey in
                        "INSERT INTO chunk_base_\(base) SELECT * FROM \(base) WHERE \(baseKey) = \(photo);"
                    }.joined(separator: " ")
                    statements.append("""
                        CREATE TRIGGER IF NOT EXISTS chunk_base_\(table)_\(event.lowercased())_\(row.lowercased()) BEFORE \(event) ON \(table) \
                        WHEN NOT EXISTS (SELECT 1 FROM chunk_touched WHERE photo = \(photo)) \
                        BEGIN \(copies) INSERT OR IGNORE INTO chunk_touched (photo) VALUES (\(photo)); END
                        """)
                }
                let inserts = rows.map { "INSERT OR IGNORE INTO chunk_touched (photo) VALUES (\($0).\(key));" }.joined(separator: " ")
                statements.append("CREATE TRIGGER IF NOT EXISTS chunk_touched_\(table)_\(event.lowercased()) AFTER \(event) ON \(table) BEGIN \(inserts) END")
            }
        }
        return statements
    }()

    /// Makes the finished chunk's delta `file` from its view `view`: the rows of the photos it touched
    /// (`chunk_touched`), with their renditions, aliases and second originals, and chunk `chunk`'s attempts of
    /// distributed run `parent` with their steps. Made under a temporary name and renamed into place; then the view
    /// and its log go, so a run folder keeps one small file per finished chunk. A chunk killed before the rename
    /// leaves its view, which `album merge` compacts the same way.
    public static func compactChunk(view: String, database file: String, parent: Int64, chunk: Int) throws {
        let partial = file + ".delta"
        try? FileSystem.remove(partial)
        do {
            // Made first, with its page size (the connection that attaches it cannot create files).
            let delta = try Database(path: partial, mode: .readWriteCreate)
            do { try delta.execute("PRAGMA page_size = 1024; VACUUM") } catch { delta.close(); throw error }
            delta.close()
            let database = try openView(view, writing: true)
            defer { database.close() }
            let version = try Schema.version(database)
            try database.run("ATTACH DATABASE ? AS delta", [.text(partial)])
            let touched = "(SELECT photo FROM main.chunk_touched)"
            let attempts = "(SELECT id FROM main.runs WHERE parent = \(parent) AND chunk = \(chunk))"
            try database.execute("""
                BEGIN;
                CREATE TABLE delta.chunk_delta (parent INTEGER NOT NULL, chunk INTEGER NOT NULL);
                INSERT INTO delta.chunk_delta VALUES (\(parent), \(chunk));
                CREATE TABLE delta.chunk_touched AS SELECT * FROM main.chunk_touched;
                CREATE TABLE delta.photos AS SELECT * FROM main.photos WHERE id IN \(touched);
                CREATE TABLE delta.renditions AS SELECT * FROM main.renditions WHERE photo IN \(touched);
                CREATE TABLE delta.aliases AS SELECT * FROM main.aliases WHERE photo IN \(touched);
                CREATE TABLE delta.second_originals AS SELECT * FROM main.second_originals WHERE photo IN \(touched);
                CREATE TABLE delta.runs AS SELECT * FROM main.runs WHERE id IN \(attempts);
                CREATE TABLE delta.steps AS SELECT * FROM main.steps WHERE run IN \(attempts);
                CREATE TABLE delta.chunk_base_photos AS SELECT * FROM main.chunk_base_photos;
                CREATE TABLE delta.chunk_base_renditions AS SELECT * FROM main.chunk_base_renditions;
                CREATE TABLE delta.chunk_base_aliases AS SELECT * FROM main.chunk_base_aliases;
                CREATE TABLE delta.chunk_base_second_originals AS SELECT * FROM main.chunk_base_second_originals;
                PRAGMA delta.user_version = \(version);
                COMMIT;
                """)
            try database.execute("DETACH DATABASE delta")
            try FileSystem.rename(partial, to: file)
        } catch let error as SQLiteError {
            try? FileSystem.remove(partial)
            throw CatalogueError("cannot make the delta \(file) of chunk catalogue \(view): \(error.message)")
        } catch let error as SystemError {
            throw CatalogueError("cannot make the delta \(file) of chunk catalogue \(view): \(error.description)")
        }
        removeView(view)
    }

    /// Removes chunk view `view` and its log (the log last: a view without its log would read as the catalogue as planned).
    public static func removeView(_ view: String) {
        try? FileSystem.remove(view)
        try? FileSystem.remove(view + "-wal")
        try? FileSystem.remove(view + ".partial")
    }

    /// Whether the chunk database `file` is a finished chunk's delta (`compactChunk`), not a catalogue a chunk can run
    /// on: false when it is not there.
    public static func isChunkDelta(database file: String) throws -> Bool {
        guard FileSystem.exists(file), (FileStatus.of(file)?.size ?? 0) > 0 else { return false }
        let database = try Database(path: file, mode: .readOnly)
        defer { database.close() }
        database.setBusyTimeout(milliseconds: 5_000)
        return try !database.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'chunk_delta'") { $0.int(0) }.isEmpty
    }
}
