/// An index added to a table after the table was made (`TableRecord.addedIndexes`): its `CREATE INDEX` and the schema
/// version whose migration creates it (`Schema.migration(to:)`), declared beside the table's columns as a column's
/// `since` is. A table made from its declaration lists the indexes it is made with in `indexes` instead.
///
/// ```swift
/// TableIndex("CREATE INDEX photos_replaces ON photos(replaces)", since: 9)
/// ```
package struct TableIndex: Sendable {
    /// The whole statement, without its `;`.
    package let definition: String
    /// The schema version that adds it.
    package let since: Int

    package init(_ definition: String, since: Int) {
        self.definition = definition
        self.since = since
    }
}
