import Foundation
import SQLite
import System

/// How a catalogue's database is opened: writers check it before their first write, readers never write.
///
/// A writer takes the lock, opens the file read-write and runs `PRAGMA quick_check` before anything that could
/// write (`journal_mode`, migrations, the run rows): a damaged file is refused and left byte for byte as it was.
/// The check is skipped when the file is provably unchanged since album's last clean close (`CatalogueStamp`).
///
/// A reader never writes: not a migration (an older schema is refused with what to do, and the next writer migrates
/// it), nor a checkpoint, ever: its close never checkpoints (SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE), even when it is the
/// last connection and a writer committed after it opened. So a reader may leave SQLite's `-wal` and `-shm` files
/// beside the database (an empty `-wal` when nothing was written), never a changed `catalogue.db`; the next writer
/// checkpoints the log and removes them. A reader that may write the folder and the file opens it read-write under
/// `PRAGMA query_only`, reading through the log as a writer does. A reader that may not follows SQLite's rules for
/// read-only WAL databases (sqlite.org/wal.html, "Read-Only Databases"): with a `-wal` and a `-shm` file present it
/// reads through them (a run may be writing); with no `-wal` file the database file is the whole catalogue, and it
/// is opened `immutable=1`, which needs no `-shm` and creates no file. A `-wal` with content but no `-shm` cannot be
/// read without writing, and is refused with what to do.
extension CatalogueReader {
    /// What opening found: the connection, the writer's lock, and the pre-write check's finding.
    struct Opened {
        var database: Database
        var lock: CatalogueLock?
        var readOnly = false
        var damage: String?
        /// The pre-write check passed (or was skipped for a file unchanged since): the writer's close may stamp it.
        var sound = false
        /// The pre-write check ran in full (false when the file was unchanged since album's last clean close).
        var checkedInFull = false
    }

    /// Whether this process may write the catalogue in `folder`: the folder (for `-wal`, `-shm` and the lock) and
    /// the database file. `access(2)` answers for this user and for read-only mounts (EROFS).
    static func writable(_ folder: String) -> Bool {
        let file = folder + "/" + databaseName
        return FileSystem.whyNotWritable(folder) == nil && FileSystem.whyNotWritable(file)?.notFound ?? true
    }
}

extension Catalogue {
    static func openForWriting(folder: String, create: Bool, locking: Bool, keepDamaged: Bool, whileChunksRead: Bool = false) throws -> Opened {
        let file = folder + "/" + databaseName
        let manager = FileManager.default
        let exists = manager.fileExists(atPath: file)
        if !exists {
            guard create else { throw noCatalogue(folder) }
            do {
                // Durably (each new folder's parent synced): a power cut must not take the folder of a committed row.
                try Directory.create(folder)
            } catch {
                // errno's words and the folder that refused (Foundation's would say "The operation could not be completed").
                let parent = Directory.parent(of: error.path ?? folder)
                let elsewhere = "choose another folder with --catalogue DIR or the job's `catalogue:`"
                if error.permissionDenied {
                    throw CatalogueError("cannot create catalogue folder \(folder): \(error.reason) in \(parent). "
                                         + "Make \(parent) writable for this user, or \(elsewhere)")
                }
                if error.notADirectory {
                    throw CatalogueError("cannot create catalogue folder \(folder): \(error.path ?? folder) exists and is "
                                         + "not a folder. Move that file away, or \(elsewhere)")
                }
                throw CatalogueError("cannot create catalogue folder \(folder): \(error.reason). Free the file system or make it "
                                     + "writable, or \(elsewhere)")
            }
        }
        if let error = FileSystem.whyNotWritable(folder) {
            throw CatalogueError("catalogue folder \(folder) is not writable: \(error.reason). album writes there; commands that only read (ls, show, runs, report, verify) work on it as it is")
        }
        if exists, let error = FileSystem.whyNotWritable(file) {
            throw CatalogueError("catalogue database \(file) is not writable: \(error.reason). Commands that only read (ls, show, runs, report, verify) work on it as it is")
        }
        let lock = locking ? try CatalogueLock(folder: folder) : nil
        // A log with commits in it is checkpointed into the file on close: not when the file turns out damaged.
        let log = size(of: file + "-wal"), logHasFrames = log ?? 0 > 0
        let unchanged = exists && !logHasFrames && locking && CatalogueStamp(file: file).map { $0 == CatalogueStamp.recorded(in: folder) } == true
        var opened: Database?
        do {
            let database = try Database(path: file, mode: create ? .readWriteCreate : .readWrite)
            opened = database
            database.setBusyTimeout(milliseconds: 5_000)
            // First, before anything that may write: even `journal_mode = WAL` rewrites the header of a file not in WAL.
            if !unchanged, let problem = try damage(of: database) {
                if logHasFrames { try database.skipCheckpointOnClose() }
                guard keepDamaged else { throw damaged(file, problem) }
                return Opened(database: database, lock: lock, damage: problem)
            }
            // Chunks that read catalogue.db in place (docs/distributed.md) would read any page written now: only
            // their run's merge and abandon open a writer until they have finished.
            if locking, !whileChunksRead, exists, let reading = try inPlaceReaders(folder: folder, database: database) {
                throw CatalogueError("catalogue \(folder) is read in place by the chunks of distributed run \(folder)/\(reading): nothing writes it until they have finished. Merge it with `album merge \(folder)/\(reading)` once they have, or give it up with `album dist abandon \(folder)/\(reading)`, then try again")
            }
            try database.execute("PRAGMA foreign_keys = ON")
            _ = try database.query("PRAGMA journal_mode = WAL") { $0.text(0) }
            // FULL: each commit syncs the log, so a committed row (and the event that announces it) survives a power
            // cut, not only a process kill; the run batches its commits, so it is one sync per batch.
            try database.execute("PRAGMA synchronous = FULL")
            try Schema.migrate(database, folder: folder)
            if locking { try database.run("UPDATE runs SET status = 'interrupted' WHERE status = 'running'") }
            return Opened(database: database, lock: lock, sound: true, checkedInFull: !unchanged)
        } catch {
            opened?.close()
            lock?.release()
            throw described(error, file: file)
        }
    }
}

extension CatalogueReader {
    /// Opens the catalogue to read it. Unless `refusingDamage` is false (`album verify`, which reports damage), a
    /// file not provably unchanged since album's last clean close gets the writers' `PRAGMA quick_check` first: a
    /// damaged file is refused (exit 3), never read into a history cut short or rows silently missing.
    static func openForReading(folder: String, refusingDamage: Bool = true) throws -> Opened {
        let file = folder + "/" + databaseName
        guard FileManager.default.fileExists(atPath: file) else { throw noCatalogue(folder) }
        let canWrite = writable(folder)
        var opened: Database?
        do {
            let database = try Database(path: file, mode: canWrite ? .readWrite : try readOnlyMode(file))
            opened = database
            database.setBusyTimeout(milliseconds: 5_000)
            if refusingDamage, !unchangedSinceCleanClose(file: file, folder: folder), let problem = try damage(of: database) {
                throw damaged(file, problem, reading: true)
            }
            // A reader never writes, not even a migration (the next writer migrates), nor a checkpoint on close,
            // whatever the log holds now: a writer may commit after this open and close first, leaving this reader the
            // last connection, whose close would checkpoint those commits into the file. The log stays for a writer.
            try database.skipCheckpointOnClose()
            if canWrite { try database.setQueryOnly() }
            try Schema.check(database, folder: folder, canWrite: canWrite)
            return Opened(database: database, readOnly: !canWrite)
        } catch {
            opened?.close()
            throw described(error, file: file)
        }
    }

    /// Whether the file is the one album's last clean close stamped (`CatalogueStamp`), with no commit in a `-wal`
    /// beside it (an empty one, as a reader leaves, holds none): then its check can be skipped, as a writer skips it.
    /// Any write to the file since changes its ctime.
    static func unchangedSinceCleanClose(file: String, folder: String) -> Bool {
        size(of: file + "-wal") ?? 0 == 0 && CatalogueStamp(file: file).map { $0 == CatalogueStamp.recorded(in: folder) } == true
    }

    /// How to open a database this process cannot write, from the WAL files beside it.
    private static func readOnlyMode(_ file: String) throws -> Database.Mode {
        let log = size(of: file + "-wal"), index = size(of: file + "-shm")
        if let log, index != nil || log > 0 {
            guard index != nil else {
                throw CatalogueError("catalogue database \(file) has changes in \(file)-wal that cannot be read without its -shm file, which is missing, and this user cannot create it: someone who can write the folder must open the catalogue once (album verify)")
            }
            return .readOnly
        }
        return .readOnlyImmutable
    }

    /// What `PRAGMA quick_check` finds wrong with the database, or nil when it finds nothing.
    ///
    /// quick_check reads every page and checks the b-trees' structure, the free list and NOT NULL; it skips what
    /// `integrity_check` adds, UNIQUE and index-against-table (sqlite.org/pragma.html#pragma_quick_check), which
    /// costs several times as much (Benchmarks/RESULTS.md, "The pre-write check"); `album verify` runs that one.
    static func damage(of database: Database) throws -> String? {
        do {
            let findings = findingLines(try database.query("PRAGMA quick_check") { $0.text(0) ?? "" })
            guard findings != ["ok"] else { return nil }
            let more = findings.count > 1 ? " (and \(findings.count - 1) more)" : ""
            return "quick_check: " + (findings.first ?? "no answer") + more
        } catch let error as SQLiteError where error.isCorrupt {
            return error.message
        }
    }

    /// An integrity or quick check's answer as one finding a line: a row may hold several lines, and SQLite heads
    /// them with "*** in database main ***", which says nothing here.
    static func findingLines(_ rows: [String]) -> [String] {
        rows.flatMap { $0.split(separator: "\n").map(String.init) }.filter { !$0.hasPrefix("*** in database") }
    }

    /// The error for a damaged database: what was found, and that album leaves the file alone.
    package static func damaged(_ file: String, _ problem: String, duringRun: Bool = false, reading: Bool = false) -> CatalogueError {
        let folder = (file as NSString).deletingLastPathComponent
        let what = duringRun ? "was found damaged during the run (\(problem)); the run stopped, and" : "is damaged or not an album catalogue (\(problem));"
        let will = reading ? "album will not read it, so that no answer comes from a damaged file" : "album will not write to it"
        return CatalogueError("catalogue database \(file) \(what) \(will). Run `album verify --catalogue \(folder)` for details, then restore it from a backup or move it away")
    }

    fileprivate static func described(_ error: Error, file: String) -> Error {
        guard let error = error as? SQLiteError else { return error }
        if error.isCorrupt { return damaged(file, error.message) }
        return CatalogueError("cannot open catalogue \(file): \(error.message)")
    }

    fileprivate static func noCatalogue(_ folder: String) -> CatalogueError {
        CatalogueError("no catalogue at \(folder): run a job or `album import` to create one, or pass --catalogue DIR", missingFolder: folder)
    }

    fileprivate static func size(of path: String) -> Int? {
        FileStatus.of(path)?.size
    }
}
