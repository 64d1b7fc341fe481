/// An SQLite call failed: the result code, SQLite's message, and the SQL that was running.
public struct SQLiteError: Error, Sendable, CustomStringConvertible {
    /// SQLite's extended result code, e.g. 5 (SQLITE_BUSY) or 11 (SQLITE_CORRUPT).
    public var code: Int32
    public var message: String
    public var sql: String?

    public init(code: Int32, message: String, sql: String? = nil) {
        self.code = code
        self.message = message
        self.sql = sql
    }

    /// The primary result code (the low byte of the extended one).
    public var primaryCode: Int32 { code & 0xff }

    /// SQLITE_CORRUPT or SQLITE_NOTADB: the file is damaged or is not a database.
    public var isCorrupt: Bool { primaryCode == 11 || primaryCode == 26 }

    /// SQLITE_MISMATCH: a column read found what its reader cannot be made from (`Row`'s `row["name"]`), or a
    /// value its record cannot take (`mismatch(_:sql:)`).
    public var isMismatch: Bool { primaryCode == 20 }

    /// The error for a value read from a row that its record cannot take: SQLITE_MISMATCH with `message`, which
    /// names the table and the column.
    public static func mismatch(_ message: String, sql: String? = nil) -> SQLiteError {
        SQLiteError(code: 20, message: message, sql: sql)
    }

    public var description: String {
        var text = "SQLite error \(code): \(message)"
        if let sql { text += " (while running: \(sql))" }
        return text
    }
}
