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
}
