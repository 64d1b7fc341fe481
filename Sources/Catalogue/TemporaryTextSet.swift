import SQLite

/// A set of texts that SQLite keeps, not the process: a temporary table of the writer's connection (its pages in
/// SQLite's page cache, spilled to a temporary file), so a command that must know "is this path recorded?" for every
/// file of a folder tree holds no Swift `Set` of every recorded path (`album gc`, issue 34). Made and dropped by
/// `Catalogue.withTemporarySet`.
public struct TemporaryTextSet {
    let database: Database
    let table: String

    /// Adds `text` (again is harmless).
    public func insert(_ text: String) throws {
        try database.run("INSERT OR IGNORE INTO temp.\(table) (text) VALUES (?)", [.text(text)])
    }

    /// Whether `text` was added.
    public func contains(_ text: String) throws -> Bool {
        try database.query("SELECT 1 AS found FROM temp.\(table) WHERE text = ?", [.text(text)]) { _ in true }.first ?? false
    }
}
