import Foundation
import SQLite
import System
import Core

/// An album catalogue opened to write it: a `CatalogueReader` with the write methods, and the folder's lock.
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
/// Reads and writes are different doors, as GRDB's `read {}` and `write {}`: a command that only reads opens a
/// `CatalogueReader`, which has no write method (the compiler refuses one), never migrates and never writes. A
/// `Catalogue` is also a reader, so code that only reads takes a `CatalogueReader` and serves both.
///
/// A catalogue opened for writing holds the folder's `CatalogueLock` until `close()`: a second writer stops at once
/// with "catalogue DIR is in use by album pid N since TIME". A writer checks the database (`PRAGMA quick_check`)
/// before its first write and refuses a damaged one, then migrates an older schema.
public final class Catalogue: CatalogueReader {
    private var lock: CatalogueLock?
    /// Each table's `INSERT` as `insertRow` built it, by table and conflict key: built once, not per step row.
    var insertSQL: [String: String] = [:]
    /// Whether `close()` may stamp the file as album leaves it (`CatalogueStamp`): a writer whose check passed.
    private let stampOnClose: Bool

    /// Opens the catalogue in `folder` to write it, creating folder and database when `create` is true.
    ///
    /// With `writing`, it first takes the catalogue's lock, and marks runs still recorded as `running` as
    /// `interrupted`: holding the lock proves that no process is running them any more.
    /// - Throws: `CatalogueError` with a message naming the folder and what to do: no catalogue, not writable,
    ///   in use, damaged (the pre-write check failed; the file is left byte for byte as it was), newer schema.
    /// `whileChunksRead`: open even while a distributed run's chunks read `catalogue.db` in place (its merge and
    /// abandon, which write nothing until they may); every other writer refuses then.
    public convenience init(folder: String, create: Bool, writing: Bool = false, whileChunksRead: Bool = false) throws {
        let folder = Paths.absolute(folder)
        self.init(writing: folder, try Catalogue.openForWriting(folder: folder, create: create, locking: writing, keepDamaged: false,
                                                                whileChunksRead: whileChunksRead))
    }

    /// A writer from what `openForWriting` (or `forChunk`) opened. Named apart from the reader's `init(folder:_:)`,
    /// so that `Catalogue` inherits none of the reader's initialisers: no `Catalogue` is ever opened to read.
    init(writing folder: String, _ opened: Opened) {
        lock = opened.lock
        stampOnClose = opened.lock != nil && opened.sound
        super.init(folder: folder, opened)
    }

    /// Closes the database connection, then releases the lock when the catalogue was opened for writing.
    /// A writer that met no damage and left no `-wal` (its checkpoint done: no other connection open) stamps the
    /// file, so that the next writer may skip its check; any other writer forgets the stamp.
    public override func close() {
        database.close()
        guard let lock else { return }
        let file = folder + "/" + Catalogue.databaseName
        if stampOnClose, !database.metDamage, !FileSystem.exists(file + "-wal"), let stamp = CatalogueStamp(file: file) {
            stamp.record(in: folder)
        } else {
            CatalogueStamp.forget(in: folder)
        }
        lock.release()
        self.lock = nil
    }

    /// Runs `body` in one transaction.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try database.transaction(body)
    }

    /// Runs `body` with the writer's connection, for a service above the store that speaks SQL the store's methods do
    /// not (`ChunkMerger`: `ATTACH`, and statements across the attached databases). Only a writer has this door.
    package func connection<T>(_ body: (Database) throws -> T) rethrows -> T {
        try body(database)
    }

    /// Starts a transaction that the caller ends with `commit()`; the scheduler's writer batches steps this way.
    public func begin() throws { try database.execute("BEGIN IMMEDIATE") }
    /// Commits the transaction opened by `begin()`.
    public func commit() throws { try database.execute("COMMIT") }
    /// Abandons the transaction opened by `begin()`.
    public func rollback() throws { try database.execute("ROLLBACK") }
}
