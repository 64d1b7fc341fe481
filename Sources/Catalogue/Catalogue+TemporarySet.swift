import SQLite

extension Catalogue {
    /// Runs `body` with an empty `TemporaryTextSet`, filled and read inside one transaction of this connection (so its
    /// inserts are not committed one by one), and drops it after, whatever `body` does. Only the writer makes one: a
    /// reader's connection refuses every write, a temporary table's too (`PRAGMA query_only`).
    public func withTemporarySet<T>(_ body: (TemporaryTextSet) throws -> T) throws -> T {
        let table = "album_text_set"
        try database.execute("CREATE TEMP TABLE IF NOT EXISTS \(table) (text TEXT PRIMARY KEY) WITHOUT ROWID")
        defer { try? database.execute("DROP TABLE IF EXISTS temp.\(table)") }
        return try database.transaction(immediate: false) { try body(TemporaryTextSet(database: database, table: table)) }
    }
}
