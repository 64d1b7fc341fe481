import SQLite
import Core

/// One column of a record's table, declared once (issue 31): its name, its SQL definition, the schema version
/// that added it, the record's property that holds it, and where it shows in the record's JSON (nil: not shown).
///
/// A record's `columns` give everything else: `init(row:)` (each column read by name into its property),
/// `values` (what `insertRow` binds), the JSON encoding (`TableRecord.columnJSON`), and the table's definition,
/// which `RecordMappingTests` compares with the migrated table's `PRAGMA table_info`. A column added after schema
/// version 7 needs no migration written by hand: `Schema` adds it (`ALTER TABLE … ADD COLUMN`) from its
/// declaration's `since` (docs/catalogue.md, "Adding a column").
package struct Column<Record>: Sendable {
    /// The column's name in SQL.
    package let name: String
    /// Everything after the name in its definition: type and constraints, e.g. `TEXT NOT NULL DEFAULT 'none'`.
    package let definition: String
    /// The schema version that added it (1: the first table).
    package let since: Int
    /// Reads the column's value from a row into the record; nil for a column the record does not hold (`id`, `at`).
    package let read: (@Sendable (inout Record, Row) throws -> Void)?
    /// The value an `INSERT` binds; nil for a column the table fills itself.
    package let value: (@Sendable (Record) -> Value)?
    /// The column's place in the record's JSON object (ascending), and its JSON value; nil: not shown.
    let jsonPosition: Int?
    package let json: (@Sendable (Record) -> JSONValue)?

    /// A column the record holds in `property`.
    /// - Parameters:
    ///   - written: false for a column the table fills (an `INTEGER PRIMARY KEY`) that the record still reads.
    ///   - json: its place in the JSON object; nil: not shown. `encoded` turns the value into JSON when the plain
    ///     form (`Field.json`) is not the one shown, e.g. a time shown in UTC.
    ///   - reading: turns what the row holds into the property's value, when that is more than reading it (a value
    ///     checked, a NULL read as a default).
    package static func column<V: Field>(_ name: String, _ definition: String, _ property: WritableKeyPath<Record, V> & Sendable,
                                 since: Int = 1, written: Bool = true, json: Int? = nil,
                                 encoded: (@Sendable (V) -> JSONValue)? = nil,
                                 reading: (@Sendable (Row, String) throws -> V)? = nil) -> Column {
        let read: @Sendable (inout Record, Row) throws -> Void = { record, row in
            let value: V
            if let reading {
                value = try reading(row, name)
            } else {
                value = try row[name]
            }
            record[keyPath: property] = value
        }
        let bound: @Sendable (Record) -> Value = { record in record[keyPath: property].value }
        let shown: @Sendable (Record) -> JSONValue = { record in
            let value = record[keyPath: property]
            return encoded?(value) ?? value.json
        }
        return Column(name: name, definition: definition, since: since, read: read, value: written ? bound : nil,
                      jsonPosition: json, json: json == nil ? nil : shown)
    }

    /// This column of a record held inside another (`\Outer.inner`), as the outer record's: a record that extends
    /// another one's table (`RecordMappingTests`' worked example of a new column) reuses its declarations.
    func lifted<Outer>(_ inner: WritableKeyPath<Outer, Record> & Sendable) -> Column<Outer> {
        var outerRead: (@Sendable (inout Outer, Row) throws -> Void)? = nil
        if let readInner = self.read {
            outerRead = { outer, row in try readInner(&outer[keyPath: inner], row) }
        }
        var outerValue: (@Sendable (Outer) -> Value)? = nil
        if let value = self.value {
            outerValue = { outer in value(outer[keyPath: inner]) }
        }
        var outerJSON: (@Sendable (Outer) -> JSONValue)? = nil
        if let json = self.json {
            outerJSON = { outer in json(outer[keyPath: inner]) }
        }
        return Column<Outer>(name: name, definition: definition, since: since, read: outerRead, value: outerValue,
                             jsonPosition: jsonPosition, json: outerJSON)
    }

    /// A column the table fills and the record does not hold (`renditions.id`, `steps.at`).
    static func filled(_ name: String, _ definition: String, since: Int = 1) -> Column {
        Column(name: name, definition: definition, since: since, read: nil, value: nil, jsonPosition: nil, json: nil)
    }
}

/// A Swift type a column holds: how it is bound in SQL and shown in JSON. Reading it is `ColumnValue`'s.
package protocol Field: ColumnValue, Sendable {
    var value: Value { get }
    var json: JSONValue { get }
}

extension String: Field {
    package var value: Value { .text(self) }
    package var json: JSONValue { .string(self) }
}

extension Int: Field {
    package var value: Value { .int(self) }
    package var json: JSONValue { .int(self) }
}

extension Int64: Field {
    package var value: Value { .integer(self) }
    package var json: JSONValue { .int(Int(self)) }
}

extension Double: Field {
    package var value: Value { .real(self) }
    package var json: JSONValue { .double(self) }
}

/// Stored as 0 or 1 (`has_gps`), shown as true or false.
extension Bool: Field {
    package var value: Value { .int(self ? 1 : 0) }
    package var json: JSONValue { .bool(self) }
}

extension Optional: Field where Wrapped: Field {
    package var value: Value { self?.value ?? .null }
    package var json: JSONValue { self?.json ?? .null }
}

/// A closed set of words stored as text (a rendition's kind, a step's stage and status).
extension Field where Self: RawRepresentable, RawValue == String {
    package var value: Value { .text(rawValue) }
    package var json: JSONValue { .string(rawValue) }
}
