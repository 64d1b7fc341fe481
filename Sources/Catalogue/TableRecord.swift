import SQLite
import Core

/// A catalogue record that is one row of one table, mapped by column name from one declaration per column.
///
/// The record's `+Row` file declares its `columns` (`Column`: name, SQL definition, the property, the schema version
/// that added it, its place in the JSON), and `blank`, the record before any column is read. `init(row:)` (what a
/// `SELECT *` of the table reads), `values` (what an `INSERT` binds), `columnJSON` and the table's definition all
/// come from those, so a new column is one line and no query lists the columns again (`Catalogue.fetchAll` and
/// `insertRow` build the SQL from them). docs/catalogue.md, "Adding a column", says what else a column takes.
package protocol TableRecord: Sendable {
    /// The table that holds these records.
    static var table: String { get }
    /// Every column of the table, in the table's order, each declared once.
    static var columns: [Column<Self>] { get }
    /// The table's constraints over several columns (`PRIMARY KEY (photo, path)`), after the columns.
    static var constraints: [String] { get }
    /// The record with placeholder values, before `init(row:)` reads each column into it.
    static var blank: Self { get }
    /// The schema version whose migration creates the table from its declaration (`Schema.migration(to:)`): 1 for
    /// the tables of the fixed history (versions 1–7 create them by hand), a later version for a table added since.
    static var since: Int { get }
    /// The table's indexes, created with it when the table is one its declaration creates (`since` over 7).
    static var indexes: [String] { get }
    /// The indexes added to the table since it was made, each with the schema version that adds it (`TableIndex`).
    static var addedIndexes: [TableIndex] { get }
    /// Applies `transform` to each path the record stores relative to the catalogue (`CataloguePaths`): resolved
    /// after a read, made relative before a write. Records without such a path keep the default, which does nothing.
    mutating func mapPaths(_ transform: (String) -> String)
}

extension TableRecord {
    package mutating func mapPaths(_ transform: (String) -> String) {}

    package static var constraints: [String] { [] }

    package static var since: Int { 1 }

    package static var indexes: [String] { [] }

    package static var addedIndexes: [TableIndex] { [] }

    /// Reads a record from a row that has the table's columns (`SELECT *`); throws when one is missing or mistyped.
    package init(row: Row) throws {
        self = Self.blank
        // By index, each column's reader alone taken from the array: a `for column in` loop copies every column
        // (its name, definition and closures, each retained and released), and a photo row has 39 of them.
        let columns = Self.columns
        for index in columns.indices {
            try columns[index].read?(&self, row)
        }
    }

    /// The columns the record writes, each with its value; the table fills the others itself (`id`, `at`).
    package var values: [(column: String, value: Value)] {
        Self.columns.compactMap { column in column.value.map { (column.name, $0(self)) } }
    }

    /// The record's columns shown in JSON, in their declared places.
    var columnJSON: [(String, JSONValue)] {
        Self.columns.filter { $0.json != nil }.sorted { $0.jsonPosition! < $1.jsonPosition! }.map { ($0.name, $0.json!(self)) }
    }

    /// Each column's name, definition and version, for `Schema` (which cannot name `Column<Self>` of every record).
    static var declaredColumns: [(name: String, definition: String, since: Int)] {
        columns.map { ($0.name, $0.definition, $0.since) }
    }

    /// The table as its columns declare it, for a test to compare with the migrated table (`CREATE TABLE … (…)`).
    static var declaredDefinition: String { definition(at: Int.max) }

    /// The table as the migration to `version` creates it: the columns declared `since` that version or before. A
    /// column declared later is added by its own version's `ALTER TABLE … ADD COLUMN`, after the others, so the
    /// migrated table ends with the same columns in the same order as `declaredDefinition`.
    static func definition(at version: Int) -> String {
        let present = columns.filter { $0.since <= version }
        return "CREATE TABLE \(table) (" + (present.map { "\($0.name) \($0.definition)" } + constraints).joined(separator: ", ") + ")"
    }
}
