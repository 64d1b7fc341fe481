internal import CSQLite

/// A prepared statement, finalized in `deinit`. Used by one thread at a time, like its `Database`.
public final class Statement {
    @usableFromInline let handle: OpaquePointer
    /// Unowned: the database keeps its cached statements, and a statement never outlives its database's use.
    private unowned let database: Database
    /// The SQL text, for messages.
    public let sql: String
    /// Each result column's index by name (`AS` aliases included), for `Row`'s reads by name.
    let columnIndex: [String: Int32]
    /// The result columns' names in order, and the column after the one read last: a record reads its columns in
    /// the table's order, so `Row` tries that one first and hashes a name only when it is not (a photo row is
    /// 25 columns, and hashing each name was a tenth of a no-op rerun's time).
    let columnNames: [String]
    let isFirstOfItsName: [Bool]
    var nextColumn = 0

    init(database: Database, sql: String) throws {
        var handle: OpaquePointer?
        let status = sqlite3_prepare_v2(database.handle, sql, -1, &handle, nil)
        guard status == SQLITE_OK, let handle else {
            throw database.failure(code: database.lastErrorCode, message: database.lastErrorMessage, sql: sql)
        }
        self.handle = handle
        self.database = database
        self.sql = sql
        var columnIndex: [String: Int32] = [:]
        for index in 0..<sqlite3_column_count(handle) {
            // The first of two result columns with the same name wins, as in GRDB's `row["name"]`.
            if let name = sqlite3_column_name(handle, index), columnIndex[String(cString: name)] == nil {
                columnIndex[String(cString: name)] = index
            }
        }
        self.columnIndex = columnIndex
        let names = (0..<sqlite3_column_count(handle)).map { sqlite3_column_name(handle, $0).map { String(cString: $0) } ?? "" }
        columnNames = names
        isFirstOfItsName = names.indices.map { columnIndex[names[$0]] == Int32($0) }
    }

    /// The index of result column `name`: the first with that name, as `columnIndex` has it.
    @usableFromInline
    func index(ofColumn name: String) -> Int32? {
        let next = nextColumn
        let index: Int32
        if next < columnNames.count, isFirstOfItsName[next], columnNames[next] == name {
            index = Int32(next)
        } else {
            guard let found = columnIndex[name] else { return nil }
            index = found
        }
        nextColumn = Int(index) + 1
        return index
    }

    deinit { sqlite3_finalize(handle) }

    /// Runs the statement with `arguments`, discarding rows.
    public func run(_ arguments: [Value] = []) throws {
        try bind(arguments)
        defer { sqlite3_reset(handle) }
        while try step() {}
    }

    /// Runs the statement and maps each row. Inlinable, so that the array of rows is specialised where the rows
    /// are made: generic, each append asked the runtime for the array's type (a no-op rerun's lookups).
    @inlinable
    public func query<T>(_ arguments: [Value] = [], _ map: (Row) throws -> T) throws -> [T] {
        try bind(arguments)
        defer { reset() }
        var rows: [T] = []
        while try step() {
            rows.append(try map(Row(handle: handle, statement: self)))
        }
        return rows
    }

    /// Runs the statement and hands each row to `body` as it is stepped, holding no other row: a reader of a whole
    /// table whose memory must not grow with it (`album ls`). `body` returns false to stop early.
    public func forEach(_ arguments: [Value] = [], _ body: (Row) throws -> Bool) throws {
        try bind(arguments)
        defer { sqlite3_reset(handle) }
        while try step() {
            guard try body(Row(handle: handle, statement: self)) else { return }
        }
    }

    /// The error for a column read that found the wrong type or no such column: SQLITE_MISMATCH, with this SQL.
    @usableFromInline
    func mismatch(_ message: String) -> SQLiteError {
        SQLiteError(code: SQLITE_MISMATCH, message: message, sql: sql)
    }

    @usableFromInline
    func step() throws -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw database.failure(code: database.lastErrorCode, message: database.lastErrorMessage, sql: sql)
        }
    }

    @usableFromInline
    func reset() {
        sqlite3_reset(handle)
    }

    @usableFromInline
    func bind(_ arguments: [Value]) throws {
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
