import Foundation
import SQLite

/// An album catalogue: a folder holding one SQLite database and the files album derived from photos.
///
/// ```
/// album/                 the folder (`catalogue:` in a job, `--catalogue DIR` on the command line)
///   catalogue.db         photos, renditions, runs and steps (WAL mode)
///   thumbnails/ab/…      thumbnails, sharded by the photo id's first two characters
///   filtered/ab/…        full-size filtered looks
///   originals/ab/…       copies of originals, for `mode: copy`
/// ```
///
/// A `Catalogue` is one connection and is not thread-safe: the scheduler gives it one serial owner.
///
/// A catalogue opened for writing holds the folder's `CatalogueLock` until `close()`: a second writer stops at once
/// with "catalogue DIR is in use by album pid N since TIME". Readers need no lock.
public final class Catalogue {
    /// The catalogue folder, absolute.
    public let folder: String
    let database: Database
    private var lock: CatalogueLock?

    /// The database's file name inside the folder.
    public static let databaseName = "catalogue.db"

    /// Opens the catalogue in `folder`, creating folder and database when `create` is true.
    ///
    /// With `writing`, it first takes the catalogue's lock, and marks runs still recorded as `running` as
    /// `interrupted`: holding the lock proves that no process is running them any more.
    /// - Throws: `CatalogueError` with a message naming the folder and what to do.
    public convenience init(folder: String, create: Bool, writing: Bool = false) throws {
        try self.init(folder: folder, create: create, readOnly: false, writing: writing)
    }

    /// Opens an existing catalogue only to read it (`album plan`): nothing is created, migrated or written.
    public convenience init(folder: String, readOnly: Bool) throws {
        try self.init(folder: folder, create: false, readOnly: readOnly, writing: false)
    }

    private init(folder: String, create: Bool, readOnly: Bool, writing: Bool) throws {
        let folder = Paths.absolute(folder)
        self.folder = folder
        let file = folder + "/" + Catalogue.databaseName
        let manager = FileManager.default
        if !manager.fileExists(atPath: file) {
            guard create else {
                throw CatalogueError("no catalogue at \(folder): run a job or `album import` to create one, or pass --catalogue DIR")
            }
            do {
                try manager.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw CatalogueError("cannot create catalogue folder \(folder): \(Paths.reason(error))")
            }
        }
        if create, access(folder, W_OK) != 0 {
            throw CatalogueError("catalogue folder \(folder) is not writable: \(String(cString: strerror(errno)))")
        }
        let lock = writing ? try CatalogueLock(folder: folder) : nil
        self.lock = lock
        do {
            database = try Database(path: file, mode: readOnly ? .readOnly : create ? .readWriteCreate : .readWrite)
            database.setBusyTimeout(milliseconds: 5_000)
            if readOnly {
                try Schema.check(database, folder: folder)
            } else {
                try database.execute("PRAGMA foreign_keys = ON")
                _ = try database.query("PRAGMA journal_mode = WAL") { $0.text(0) }
                try database.execute("PRAGMA synchronous = NORMAL")
                try Schema.migrate(database, folder: folder)
                if writing { try database.run("UPDATE runs SET status = 'interrupted' WHERE status = 'running'") }
            }
        } catch let error as SQLiteError {
            lock?.release()
            if error.isCorrupt {
                throw CatalogueError("catalogue database \(file) is damaged or not an album catalogue (\(error.message)). album will not touch it; restore it from a backup or move it away.")
            }
            throw CatalogueError("cannot open catalogue \(file): \(error.message)")
        } catch {
            lock?.release()
            throw error
        }
    }

    /// Closes the database connection, then releases the lock when the catalogue was opened for writing.
    public func close() {
        database.close()
        lock?.release()
        lock = nil
    }

    /// Runs `body` in one transaction.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try database.transaction(body)
    }

    /// Starts a transaction that the caller ends with `commit()`; the scheduler's writer batches steps this way.
    public func begin() throws { try database.execute("BEGIN IMMEDIATE") }
    /// Commits the transaction opened by `begin()`.
    public func commit() throws { try database.execute("COMMIT") }

    /// The path of a derived file inside the catalogue, sharded by the photo id's first two characters.
    public func derivedPath(_ area: String, photo: String, name: String) -> String {
        "\(folder)/\(area)/\(photo.prefix(2))/\(name)"
    }
}
