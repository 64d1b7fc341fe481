import CSQLite

/// One SQLite connection. Close it explicitly with `close()`; `deinit` closes a forgotten one as a safety net.
///
/// A connection is used from one thread at a time: album's catalogue writer is a serial queue, and readers open
/// their own connections. SQLite is built thread-safe (serialized) on Debian, so crossing threads is sound, and
/// album never shares a connection between threads concurrently (`@unchecked Sendable`).
public final class Database: @unchecked Sendable {
    var handle: OpaquePointer?
    /// The file, for messages.
    public let path: String

    /// How a connection opens its file.
    public enum Mode: Sendable { case readOnly, readWrite, readWriteCreate }

    public init(path: String, mode: Mode = .readWriteCreate) throws {
        self.path = path
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        switch mode {
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        case .readWrite: flags |= SQLITE_OPEN_READWRITE
        case .readWriteCreate: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        }
        var handle: OpaquePointer?
        let status = sqlite3_open_v2(path, &handle, flags, nil)
        guard status == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
            sqlite3_close_v2(handle)
            throw SQLiteError(code: status, message: "cannot open \(path): \(message)")
        }
        self.handle = handle
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

    /// Runs one or more statements that take no arguments and return no rows of interest.
    public func execute(_ sql: String) throws {
        var errorText: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(handle, sql, nil, nil, &errorText)
        guard status == SQLITE_OK else {
            let message = errorText.map { String(cString: $0) } ?? lastErrorMessage
            sqlite3_free(errorText)
            throw SQLiteError(code: sqlite3_extended_errcode(handle), message: message, sql: sql)
        }
    }

    /// Prepares a statement for repeated use.
    public func prepare(_ sql: String) throws -> Statement {
        try Statement(database: self, sql: sql)
    }

    /// Statements `run` and `query` prepared once and kept: album's SQL is a fixed set of strings, and preparing
    /// each anew cost a no-op rerun of 10 000 photos more than the queries themselves (Benchmarks/INVESTIGATION.md).
    private var statements: [String: Statement] = [:]

    func cachedStatement(_ sql: String) throws -> Statement {
        if let statement = statements[sql] { return statement }
        let statement = try prepare(sql)
        statements[sql] = statement
        return statement
    }

    /// Runs one statement with `arguments`, discarding rows.
    public func run(_ sql: String, _ arguments: [Value] = []) throws {
        try cachedStatement(sql).run(arguments)
    }

    /// Runs a query and maps each row.
    public func query<T>(_ sql: String, _ arguments: [Value] = [], _ map: (Row) throws -> T) throws -> [T] {
        try cachedStatement(sql).query(arguments, map)
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

    /// Rows changed by the last statement.
    public var changes: Int { Int(sqlite3_changes(handle)) }

    var lastErrorMessage: String { String(cString: sqlite3_errmsg(handle)) }
    var lastErrorCode: Int32 { sqlite3_extended_errcode(handle) }
}
