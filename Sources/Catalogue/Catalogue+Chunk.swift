import SQLite
import System
import Core

/// A distributed run's chunk catalogue (docs/distributed.md): the catalogue folder's files, with a database of the
/// chunk's own, `chunk-K.db` in the run folder, that starts as a copy of the run's snapshot. The chunk's scheduler
/// reads and writes it exactly as a one-machine run does the catalogue, so the chunk follows the one-machine rules;
/// `album merge` carries what it changed into the catalogue.
///
/// The database keeps a rollback journal, never a WAL: a WAL needs shared memory, which a network file system does
/// not give (sqlite.org/wal.html). Its caller holds the chunk's lock (`chunk-K.lock`), not the catalogue's.
extension Catalogue {
    /// Opens the chunk database `file` for writing, first copying `seed` (the run's snapshot) to it when it does not
    /// exist yet. The copy is made by SQLite (`VACUUM INTO` a temporary name, renamed into place), so a chunk killed
    /// while copying leaves no half database under the final name. Runs recorded as `running` are marked
    /// `interrupted`: the caller's chunk lock proves nobody runs them.
    public static func forChunk(folder: String, database file: String, seed: String) throws -> Catalogue {
        let folder = Paths.absolute(folder)
        // An empty file is no database album made (it makes one whole, by rename): a tool's, to be replaced.
        if !FileSystem.exists(file) || FileStatus.of(file)?.size == 0 {
            let partial = file + ".partial"
            try? FileSystem.remove(partial)
            do {
                let snapshot = try Database(path: seed, mode: .readOnlyImmutable)
                defer { snapshot.close() }
                try snapshot.run("VACUUM INTO ?", [.text(partial)])
                // The touch log is made with the copy, before it has its final name.
                let made = try Database(path: partial, mode: .readWrite)
                do { try made.execute((["BEGIN"] + chunkTouchLog + ["COMMIT"]).joined(separator: ";\n")) } catch { made.close(); throw error }
                made.close()
                try FileSystem.rename(partial, to: file)
            } catch let error as SQLiteError {
                throw CatalogueError("cannot make chunk catalogue \(file) from snapshot \(seed): \(error.message)")
            } catch let error as SystemError {
                throw CatalogueError("cannot make chunk catalogue \(file): \(error.description)")
            }
        }
        var opened: Database?
        do {
            let database = try Database(path: file, mode: .readWrite)
            opened = database
            database.setBusyTimeout(milliseconds: 5_000)
            if let problem = try damage(of: database) { throw damaged(file, problem) }
            try database.execute("PRAGMA foreign_keys = ON")
            _ = try database.query("PRAGMA journal_mode = DELETE") { $0.text(0) }
            try database.execute("PRAGMA synchronous = FULL")
            try Schema.check(database, folder: folder)
            try database.run("UPDATE runs SET status = 'interrupted' WHERE status = 'running'")
            return Catalogue(writing: folder, Opened(database: database, sound: true, checkedInFull: true))
        } catch {
            opened?.close()
            if let error = error as? SQLiteError {
                throw CatalogueError("cannot open chunk catalogue \(file): \(error.message)")
            }
            throw error
        }
    }

    /// The photos a chunk wrote rows of, `chunk_touched`, kept by triggers in the chunk's database in the same
    /// transactions as the rows: `album merge` compares and carries only these photos' rows (its cost is the chunk's
    /// share, never the catalogue's size), and `compactChunk` keeps only them. A photo is touched by a write to its
    /// row, its renditions, its aliases or its second originals, whatever the statement.
    static let chunkTouchLog: [String] = {
        var statements = ["CREATE TABLE IF NOT EXISTS chunk_touched (photo TEXT PRIMARY KEY) WITHOUT ROWID"]
        for (table, key) in [("photos", "id"), ("renditions", "photo"), ("aliases", "photo"), ("second_originals", "photo")] {
            for (event, rows) in [("INSERT", ["NEW"]), ("UPDATE", ["NEW", "OLD"]), ("DELETE", ["OLD"])] {
                let inserts = rows.map { "INSERT OR IGNORE INTO chunk_touched (photo) VALUES (\($0).\(key));" }.joined(separator: " ")
                statements.append("CREATE TRIGGER IF NOT EXISTS chunk_touched_\(table)_\(event.lowercased()) AFTER \(event) ON \(table) BEGIN \(inserts) END")
            }
        }
        return statements
    }()

    /// Replaces the finished chunk database `file` by its delta: the rows of the photos it touched
    /// (`chunk_touched`), with their renditions, aliases and second originals, and chunk `chunk`'s attempts of
    /// distributed run `parent` with their steps. The copy of the snapshot it ran against goes, so a run folder
    /// keeps one small file per finished chunk. Made under a temporary name and renamed into place: a chunk killed
    /// meanwhile leaves the whole database, which merges the same.
    public static func compactChunk(database file: String, parent: Int64, chunk: Int) throws {
        let partial = file + ".delta"
        try? FileSystem.remove(partial)
        do {
            // Made first, with its page size (the connection that attaches it cannot create files).
            let delta = try Database(path: partial, mode: .readWriteCreate)
            do { try delta.execute("PRAGMA page_size = 1024; VACUUM") } catch { delta.close(); throw error }
            delta.close()
            let database = try Database(path: file, mode: .readWrite)
            defer { database.close() }
            database.setBusyTimeout(milliseconds: 5_000)
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
                PRAGMA delta.user_version = \(version);
                COMMIT;
                """)
            try database.execute("DETACH DATABASE delta")
            try FileSystem.rename(partial, to: file)
        } catch let error as SQLiteError {
            try? FileSystem.remove(partial)
            throw CatalogueError("cannot make the delta of chunk catalogue \(file): \(error.message)")
        } catch let error as SystemError {
            throw CatalogueError("cannot make the delta of chunk catalogue \(file): \(error.description)")
        }
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
