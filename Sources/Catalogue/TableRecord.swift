import SQLite

/// A catalogue record that is one row of one table, mapped by column name.
///
/// The record's `+Row` file holds `init(row:)` (what a `SELECT *` of the table reads) and `values` (what an
/// `INSERT` binds) side by side, one line per column each, so a new column is one line in each and no query
/// lists the columns again (`Catalogue.select` and `insertRow` build the SQL from them). docs/catalogue.md, "Adding a
/// column", says what else a column takes.
package protocol TableRecord {
    /// The table that holds these records.
    static var table: String { get }
    /// Reads a record from a row that has the table's columns (`SELECT *`); throws when one is missing or mistyped.
    init(row: Row) throws
    /// The columns the record writes, each with its value; the table fills the others itself (`id`, `at`).
    var values: [(column: String, value: Value)] { get }
    /// Applies `transform` to each path the record stores relative to the catalogue (`CataloguePaths`): resolved
    /// after a read, made relative before a write. Records without such a path keep the default, which does nothing.
    mutating func mapPaths(_ transform: (String) -> String)
}

extension TableRecord {
    package mutating func mapPaths(_ transform: (String) -> String) {}
}
