internal import CSQLite

/// One SQLite connection. Close it explicitly with `close()`; `deinit` closes a forgotten one as a safety net.
///
/// Not `Sendable`, and opened `SQLITE_OPEN_NOMUTEX`: a connection and its statement cache belong to one thread at a
/// time, and nothing here locks. Where album shares a connection between threads, the sharer serializes every use:
/// during a run the scheduler's `CatalogueOwner` touches its catalogue (and so this connection) only on its own
/// serial queue, which its `@unchecked Sendable` comment proves; readers and the other commands open their own
/// connection and keep it on one thread. (Opening `SQLITE_OPEN_FULLMUTEX` would not be enough: `statements` and
/// `metDamage` are Swift state that SQLite's mutex does not guard.)
public final class Database {
    var handle: OpaquePointer?
    /// The file, for messages.
    public let path: String

    /// How a connection opens its file.
    public enum Mode: Sendable {
        /// Read-only, through SQLite's locks and the WAL's `-wal` and `-shm` files, which it creates when missing
        /// and the folder lets it (and then leaves behind: a read-only connection cannot checkpoint).
        case readOnly
        /// Read-only and `immutable=1` (sqlite.org/uri.html#uriimmutable): no locks, no `-wal` or `-shm`, nothing
        /// created. Only sound for a file nobody changes while it is open, and it ignores any `-wal` file.
        case readOnlyImmutable
        case readWrite, readWriteCreate
        /// A WAL-mode file read through a write-ahead log of this connection's own (`-wal` beside `path`), which is
        /// never checkpointed into the file: SQLite's `unix-none` VFS (no file locks, so that several such
        /// connections may open hard links of one file) and `SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE`. The caller must
        /// run `PRAGMA locking_mode = EXCLUSIVE` before anything else (the log's index then lives in the heap, no
        /// `-shm`), and no other kind of connection may open `path` (it would checkpoint the log into the file).
        /// A distributed chunk's view of the run's snapshot (docs/distributed.md). `writing: false` only reads.
        case ownLog(writing: Bool)
    }

    /// SQLite's process-wide set-up, done once before the first connection opens: no allocation statistics, so
    /// that connections on different threads (a run's lookups, one per worker) share no mutex on every allocation.
    /// album reads none of those statistics. (Refused, harmlessly, if SQLite was initialised before.)
    private static let configured: Void = {
        _ = album_sqlite3_memstatus_off()
    }()

    public init(path: String, mode: Mode = .readWriteCreate) throws {
        Database.configured
        self.path = path
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        var name = path
        switch mode {
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        case .readOnlyImmutable:
            flags |= SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
            name = "file:" + Database.uriEscaped(path) + "?immutable=1"
        case .readWrite: flags |= SQLITE_OPEN_READWRITE
        case .readWriteCreate: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        case .ownLog(let writing):
            flags |= (writing ? SQLITE_OPEN_READWRITE : SQLITE_OPEN_READONLY) | SQLITE_OPEN_URI
            name = "file:" + Database.uriEscaped(path) + "?vfs=unix-none" + (writing ? "" : "&mode=ro")
        }
        var handle: OpaquePointer?
        let status = sqlite3_open_v2(name, &handle, flags, nil)
        guard status == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
            sqlite3_close_v2(handle)
            throw SQLiteError(code: status, message: "cannot open \(path): \(message)")
        }
        self.handle = handle
        if case .ownLog = mode {
            do { try skipCheckpointOnClose() } catch { sqlite3_close_v2(handle); self.handle = nil; throw error }
        }
    }

    /// A path as a URI's path: every byte but unreserved characters and `/` percent-encoded (RFC 3986, which
    /// SQLite's URI parser follows: sqlite.org/uri.html).
    static func uriEscaped(_ path: String) -> String {
        var text = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                 UInt8(ascii: "~"), UInt8(ascii: "/"):
                text.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                text += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return text
    }

    /// Makes `close()` leave the write-ahead log as it is instead of checkpointing it into the database file
    /// (SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE): for a database album found damaged and must not write.
    public func skipCheckpointOnClose() throws {
        let status = album_sqlite3_no_checkpoint_on_close(handle)
        guard status == SQLITE_OK else { throw SQLiteError(code: status, message: lastErrorMessage) }
    }

    deinit {
        if let handle { sqlite3_close_v2(handle) }
    }

    /// Closes the connection; statements still alive are finalized when they go away (`sqlite3_close_v2`).
    public func close() {
        statements.removeAll()
        if let handle { sqlite3_close_v2(handle) }
        handle = nil
    }

    /// The SQLite library's version, e.g. "3.40.1".
    public static var libraryVersion: String { String(cString: sqlite3_libversion()) }

    /// Waits up to `milliseconds` for another connection's lock before failing with SQLITE_BUSY.
    public func setBusyTimeout(milliseconds: Int) {
        sqlite3_busy_timeout(handle, Int32(milliseconds))
    }

    /// Makes this connection refuse every write from now on (`PRAGMA query_only`: sqlite.org/pragma.html#pragma_query_only),
    /// a read-write connection used to read, so that SQLite's `-wal` and `-shm` files go away when it closes.
    public func setQueryOnly() throws {
        try execute("PRAGMA query_only = ON")
    }

    /// Runs one or more statements that take no arguments and return no rows of interest.
    public func execute(_ sql: String) throws {
        var errorText: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(handle, sql, nil, nil, &errorText)
        guard status == SQLITE_OK else {
            let message = errorText.map { String(cString: $0) } ?? lastErrorMessage
            sqlite3_free(errorText)
            throw failure(code: sqlite3_extended_errcode(handle), message: message, sql: sql)
        }
    }

    /// Prepares a statement for repeated use.
    public func prepare(_ sql: String) throws -> Statement {
        try Statement(database: self, sql: sql)
    }

    /// Statements `run` and `query` prepared once and kept: album's SQL is a fixed set of strings, and preparing
    /// each anew cost a no-op rerun of 10 000 photos more than the queries themselves (Benchmarks/INVESTIGATION.md).
    private var statements: [KeptSQL: Statement] = [:]

    /// The SQL of every statement `run` and `query` have prepared and kept, in no order: what a test asks SQLite's
    /// query plan of (`QueryPlanTests`).
    public var keptStatements: [String] { statements.keys.map(\.sql) }

    @usableFromInline
    func cachedStatement(_ sql: String) throws -> Statement {
        if let statement = statements[KeptSQL(sql: sql)] { return statement }
        let statement = try prepare(sql)
        statements[KeptSQL(sql: sql)] = statement
        return statement
    }

    /// A kept statement's SQL as the cache's key, hashed by its length and its last 32 bytes only: a rerun looks up
    /// statements of 200 bytes several times a photo, and hashing them whole was most of the lookup. Two statements
    /// alike there only cost a comparison of their text.
    struct KeptSQL: Hashable {
        let sql: String

        func hash(into hasher: inout Hasher) {
            var text = sql  // `withUTF8` may make a bridged string contiguous: a copy of the reference, not the bytes
            text.withUTF8 { bytes in
                hasher.combine(bytes.count)
                hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes.suffix(32))))
            }
        }
    }

    /// Runs one statement with `arguments`, discarding rows.
    public func run(_ sql: String, _ arguments: [Value] = []) throws {
        try cachedStatement(sql).run(arguments)
    }

    /// Runs a query and maps each row (inlinable, as `Statement.query`).
    @inlinable
    public func query<T>(_ sql: String, _ arguments: [Value] = [], _ map: (Row) throws -> T) throws -> [T] {
        try cachedStatement(sql).query(arguments, map)
    }

    /// Runs a query and hands each row to `body` as it is stepped (`Statement.forEach`); `body` returns false to
    /// stop. `body` may run other statements of this connection, but not this one.
    public func forEach(_ sql: String, _ arguments: [Value] = [], _ body: (Row) throws -> Bool) throws {
        try cachedStatement(sql).forEach(arguments, body)
    }

    /// Runs `body` in a transaction: commits when it returns, rolls back and rethrows when it throws.
    public func transaction<T>(immediate: Bool = true, _ body: () throws -> T) throws -> T {
        try execute(immediate ? "BEGIN IMMEDIATE" : "BEGIN")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// The rowid of the last inserted row on this connection.
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    var lastErrorMessage: String { String(cString: sqlite3_errmsg(handle)) }
    var lastErrorCode: Int32 { sqlite3_extended_errcode(handle) }

    /// True once any call on this connection has failed with SQLITE_CORRUPT or SQLITE_NOTADB.
    public private(set) var metDamage = false

    /// The error for a failed call, remembering damage in `metDamage`.
    func failure(code: Int32, message: String, sql: String? = nil) -> SQLiteError {
        let error = SQLiteError(code: code, message: message, sql: sql)
        if error.isCorrupt { metDamage = true }
        return error
    }
}
