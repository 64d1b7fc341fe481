internal import CSQLite

/// The current row of a query; valid only inside the `query` closure it is passed to.
///
/// Columns are read by name, with their type checked, as in GRDB's `row["name"]`:
/// ```
/// try database.query("SELECT id, taken FROM photos") { row in
///     (try row["id"] as String, try row["taken"] as String?)
/// }
/// ```
/// A NULL read as a non-optional, a value of another storage class, or a name the query does not return throws
/// `SQLiteError` (SQLITE_MISMATCH) naming the column and the SQL. `text(_:)` and `int(_:)` read by position and
/// do not check: for a `PRAGMA`'s rows, and for `verify`, which reads what a damaged file still holds.
public struct Row {
    @usableFromInline let handle: OpaquePointer
    @usableFromInline let statement: Statement

    @usableFromInline
    init(handle: OpaquePointer, statement: Statement) {
        self.handle = handle
        self.statement = statement
    }

    /// Column `name`, converted to `T`; throws when the query has no such column or its value is not a `T`.
    /// Inlinable, so that a record's reads are specialised for their types where they are declared: generic, each
    /// read of an optional column asked the runtime for `Optional<T>`'s metadata (a no-op rerun reads two rows a
    /// photo).
    @inlinable
    public subscript<T: ColumnValue>(_ name: String) -> T {
        get throws {
            guard let index = statement.index(ofColumn: name) else {
                throw statement.mismatch("the query returns no column named \(name)")
            }
            return try T(row: self, index: index, name: name)
        }
    }

    /// Whether column `index` is NULL.
    @usableFromInline
    func isNull(_ index: Int32) -> Bool { sqlite3_column_type(handle, index) == SQLITE_NULL }

    /// The storage class of column `index` (SQLITE_INTEGER, SQLITE_FLOAT, SQLITE_TEXT, SQLITE_BLOB, SQLITE_NULL).
    func type(_ index: Int32) -> Int32 { sqlite3_column_type(handle, index) }

    /// The error for column `name` holding what a `T` cannot be made from.
    func mismatch(_ name: String, index: Int32, expected: String) -> SQLiteError {
        let found = switch type(index) {
        case SQLITE_NULL: "NULL"
        case SQLITE_INTEGER: "an integer"
        case SQLITE_FLOAT: "a real"
        case SQLITE_TEXT: "text '\(text(Int(index)) ?? "")'"
        default: "a blob"
        }
        // The table the column comes from, when it is a table's column (not an expression such as COALESCE).
        let table = sqlite3_column_table_name(handle, index).map { "table \(String(cString: $0)): " } ?? ""
        return statement.mismatch("\(table)column \(name) holds \(found), expected \(expected)")
    }

    /// Column `index` as text, or nil for NULL.
    public func text(_ index: Int) -> String? {
        guard let text = sqlite3_column_text(handle, Int32(index)) else { return nil }
        return String(cString: text)
    }

    /// Column `index` when it holds text; nil for NULL or any other storage class. A strict read by position, for a
    /// query that lists its columns and checks each (`CatalogueReader.probedPhotos`).
    public func string(at index: Int) -> String? {
        type(Int32(index)) == SQLITE_TEXT ? text(index) : nil
    }

    /// Column `index` when it holds an integer; nil for NULL or any other storage class (as `string(at:)`).
    public func integer(at index: Int) -> Int? {
        type(Int32(index)) == SQLITE_INTEGER ? Int(sqlite3_column_int64(handle, Int32(index))) : nil
    }

    /// Whether column `index` is NULL (by position, as `string(at:)`).
    public func isNull(at index: Int) -> Bool {
        isNull(Int32(index))
    }

    /// Column `index` as an integer, or nil for NULL.
    public func int(_ index: Int) -> Int? {
        sqlite3_column_type(handle, Int32(index)) == SQLITE_NULL ? nil : Int(sqlite3_column_int64(handle, Int32(index)))
    }
}
