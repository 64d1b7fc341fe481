import SQLite
import Core

/// An album catalogue opened to read it (`ls`, `show`, `runs`, `report`, `plan`, the dry runs): one connection, no
/// lock, and no write method. Opening never writes: not a migration (an older schema is refused, saying which command
/// migrates it), nor a checkpoint, not even on close (it may leave SQLite's `-wal` and `-shm` beside the database,
/// never a changed `catalogue.db`); the connection is under `PRAGMA query_only`, or read-only when this process
/// cannot write the catalogue (`Catalogue+Open.swift` says how).
///
/// `Catalogue`, the writer, is a `CatalogueReader` too: code that only reads takes a `CatalogueReader`.
public class CatalogueReader {
    /// The catalogue folder, absolute.
    public let folder: String
    /// Where this catalogue's stored paths are resolved from: its folder as it is now.
    package let paths: CataloguePaths
    /// The connection: only the Catalogue module speaks SQL to it (a writer lends it to a service above the store
    /// through `Catalogue.connection`); other layers read through the store's methods.
    let database: Database
    /// True when the catalogue was opened only to read, without its lock, because this process cannot write it.
    public let isReadOnly: Bool
    /// What the pre-write check found when `forVerifying` opened a damaged catalogue (then nothing was written).
    public let damage: String?
    /// Whether the pre-write check ran in full at open (false: skipped, the file unchanged since the last writer).
    let checkedInFull: Bool

    /// The database's file name inside the folder.
    public static let databaseName = "catalogue.db"

    /// Opens an existing catalogue only to read it: nothing is created or written.
    /// - Throws: `CatalogueError`: no catalogue, damaged, an older schema (a writer migrates it), a newer one.
    public convenience init(folder: String) throws {
        let folder = Paths.absolute(folder)
        self.init(folder: folder, try CatalogueReader.openForReading(folder: folder))
    }

    init(folder: String, _ opened: Opened) {
        self.folder = folder
        paths = CataloguePaths(folder: folder)
        database = opened.database
        isReadOnly = opened.readOnly
        damage = opened.damage
        checkedInFull = opened.checkedInFull
    }

    /// Opens the catalogue for `album verify`: a `Catalogue` under its lock, migrated and with interrupted runs
    /// marked, when this process can write it; a reader otherwise (`isReadOnly`). A damaged catalogue is opened,
    /// not refused, and not written (`damage` says what the pre-write check found).
    public static func forVerifying(folder: String) throws -> CatalogueReader {
        let folder = Paths.absolute(folder)
        // While a distributed run's chunks read the catalogue in place, verify only reads it.
        guard writable(folder), !Catalogue.hasInPlaceReaders(folder: folder) else { return CatalogueReader(folder: folder, try openForReading(folder: folder, refusingDamage: false)) }
        return Catalogue(writing: folder, try Catalogue.openForWriting(folder: folder, create: false, locking: true, keepDamaged: true))
    }

    /// Closes the database connection.
    public func close() {
        database.close()
    }
}
