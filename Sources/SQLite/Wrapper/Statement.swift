import CSQLite

/// A prepared statement, finalized in `deinit`. Used by one thread at a time, like its `Database`.
public final class Statement {
    private let handle: OpaquePointer
    /// Unowned: the database keeps its cached statements, and a statement never outlives its database's use.
    private unowned let database: Database
    /// The SQL text, for messages.
    public let sql: String

    init(database: Database, sql: String) throws {
        var handle: OpaquePointer?
        let status = sqlite3_prepare_v2(database.handle, sql, -1, &handle, nil)
        guard status == SQLITE_OK, let handle else {
            throw database.failure(code: database.lastErrorCode, message: database.lastErrorMessage, sql: sql)
        }
        self.handle = handle
        self.database = database
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    /// Runs the statement with `arguments`, discarding rows.
    public func run(_ arguments: [Value] = []) throws {
        try bind(arguments)
        defer { sqlite3_reset(handle) }
        while try step() {}
    }

    /// Runs the statement and maps each row.
    public func query<T>(_ arguments: [Value] = [], _ map: (Row) throws -> T) throws -> [T] {
        try bind(arguments)
        defer { sqlite3_reset(handle) }
        var rows: [T] = []
        while try step() {
            rows.append(try map(Row(handle: handle)))
        }
        return rows
    }

    private func step() throws -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw database.failure(code: database.lastErrorCode, message: database.lastErrorMessage, sql: sql)
        }
    }

    private func bind(_ arguments: [Value]) throws {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        let expected = Int(sqlite3_bind_parameter_count(handle))
        guard arguments.count == expected else {
            // A mismatch is a programmer error in album's own SQL, never a user's input.
            fatalError("statement takes \(expected) arguments, got \(arguments.count): \(sql)")
        }
        for (offset, value) in arguments.enumerated() {
            let index = Int32(offset + 1)
            let status: Int32 = switch value {
            case .null: sqlite3_bind_null(handle, index)
            case .integer(let v): sqlite3_bind_int64(handle, index, v)
            case .real(let v): sqlite3_bind_double(handle, index, v)
            case .text(let v): album_sqlite3_bind_text(handle, index, v, -1)
            case .blob(let v): v.withUnsafeBytes { album_sqlite3_bind_blob(handle, index, $0.baseAddress, Int32($0.count)) }
            }
            guard status == SQLITE_OK else {
                throw database.failure(code: database.lastErrorCode, message: database.lastErrorMessage, sql: sql)
            }
        }
    }
}

/// The current row of a query; valid only inside the `query` closure it is passed to.
public struct Row {
    let handle: OpaquePointer

    /// Column `index` as text, or nil for NULL.
    public func text(_ index: Int) -> String? {
        guard let text = sqlite3_column_text(handle, Int32(index)) else { return nil }
        return String(cString: text)
    }

    /// Column `index` as an integer, or nil for NULL.
    public func int(_ index: Int) -> Int? {
        sqlite3_column_type(handle, Int32(index)) == SQLITE_NULL ? nil : Int(sqlite3_column_int64(handle, Int32(index)))
    }

    /// Column `index` as a double, or nil for NULL.
    public func double(_ index: Int) -> Double? {
        sqlite3_column_type(handle, Int32(index)) == SQLITE_NULL ? nil : sqlite3_column_double(handle, Int32(index))
    }
}
