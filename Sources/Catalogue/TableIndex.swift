/// An index added to a table after the table was made (`TableRecord.addedIndexes`): its `CREATE INDEX` and the schema
/// version whose migration creates it (`Schema.migration(to:)`), declared beside the table's columns as a column's
/// `since` is. A table made from its declaration lists the indexes it is made with in `indexes` instead.
///
/// ```swift
/// TableIndex("photos_replaces", on: "photos(replaces)", since: 9)   // CREATE INDEX photos_replaces ON photos(replaces)
/// ```
package struct TableIndex: Sendable {
    /// The index's name, and what it indexes: the table and its columns, `photos(replaces)`.
    package let name: String
    package let on: String
    /// The schema version that adds it.
    package let since: Int

    package init(_ name: String, on: String, since: Int) {
        self.name = name
        self.on = on
        self.since = since
    }

    /// The whole statement, without its `;`.
    package var definition: String { "CREATE INDEX \(name) ON \(on)" }
}
