import Foundation
import SQLite
import System
import Core

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
/// with "catalogue DIR is in use by album pid N since TIME". A writer checks the database (`PRAGMA quick_check`)
/// before its first write and refuses a damaged one. Readers need no lock, write nothing, and work on a catalogue
/// they cannot write (`Catalogue+Open.swift` says how).
public final class Catalogue {
    /// The catalogue folder, absolute.
    public let folder: String
    package let database: Database
    private var lock: CatalogueLock?
    /// True when the catalogue was opened only to read, without its lock, because this process cannot write it.
    public let isReadOnly: Bool
    /// What the pre-write check found when `forVerifying` opened a damaged catalogue (then nothing was written).
    public let damage: String?
    /// Whether the pre-write check ran in full at open (false: skipped, the file unchanged since the last writer).
    package let checkedInFull: Bool
    /// Each table's `INSERT` as `insertRow` built it, by table and conflict key: built once, not per step row.
    package var insertSQL: [String: String] = [:]
    /// Whether `close()` may stamp the file as album leaves it (`CatalogueStamp`): a writer whose check passed.
    private let stampOnClose: Bool

    /// The database's file name inside the folder.
    public static let databaseName = "catalogue.db"

    /// Opens the catalogue in `folder` to write it, creating folder and database when `create` is true.
    ///
    /// With `writing`, it first takes the catalogue's lock, and marks runs still recorded as `running` as
    /// `interrupted`: holding the lock proves that no process is running them any more.
    /// - Throws: `CatalogueError` with a message naming the folder and what to do: no catalogue, not writable,
    ///   in use, damaged (the pre-write check failed; the file is left byte for byte as it was), newer schema.
    public convenience init(folder: String, create: Bool, writing: Bool = false) throws {
        let folder = Paths.absolute(folder)
        self.init(folder: folder, try Catalogue.openForWriting(folder: folder, create: create, locking: writing, keepDamaged: false))
    }

    /// Opens an existing catalogue only to read it (`ls`, `show`, `runs`, `report`, `plan`): nothing is created or
    /// written, except that a catalogue this process may write is migrated once, under the lock, when its schema
    /// is older. `readOnly: false` is `init(folder:create: false)`.
    public convenience init(folder: String, readOnly: Bool) throws {
        guard readOnly else {
            try self.init(folder: folder, create: false)
            return
        }
        let folder = Paths.absolute(folder)
        self.init(folder: folder, try Catalogue.openForReading(folder: folder))
    }

    /// Opens the catalogue for `album verify`: under its lock, migrated and with interrupted runs marked, when this
    /// process can write it; read-only otherwise (`isReadOnly`). A damaged catalogue is opened, not refused, and
    /// not written (`damage` says what the pre-write check found).
    public static func forVerifying(folder: String) throws -> Catalogue {
        let folder = Paths.absolute(folder)
        guard writable(folder) else { return Catalogue(folder: folder, try openForReading(folder: folder, refusingDamage: false)) }
        return Catalogue(folder: folder, try openForWriting(folder: folder, create: false, locking: true, keepDamaged: true))
    }

    package init(folder: String, _ opened: Opened) {
        self.folder = folder
        database = opened.database
        lock = opened.lock
        isReadOnly = opened.readOnly
        damage = opened.damage
        checkedInFull = opened.checkedInFull
        stampOnClose = opened.lock != nil && opened.sound
    }

    /// Closes the database connection, then releases the lock when the catalogue was opened for writing.
    /// A writer that met no damage and left no `-wal` (its checkpoint done: no other connection open) stamps the
    /// file, so that the next writer may skip its check; any other writer forgets the stamp.
    public func close() {
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

    /// Starts a transaction that the caller ends with `commit()`; the scheduler's writer batches steps this way.
    public func begin() throws { try database.execute("BEGIN IMMEDIATE") }
    /// Commits the transaction opened by `begin()`.
    public func commit() throws { try database.execute("COMMIT") }
    /// Abandons the transaction opened by `begin()`.
    public func rollback() throws { try database.execute("ROLLBACK") }
}
