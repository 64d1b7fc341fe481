import SQLite

extension CatalogueReader {
    /// The records of `R.table` that `clause` (`WHERE …`, `ORDER BY …`) picks, read by column name.
    func fetchAll<R: TableRecord>(_ type: R.Type, _ clause: String, _ arguments: [Value] = []) throws -> [R] {
        let paths = self.paths
        return try database.query("SELECT * FROM \(R.table) \(clause)", arguments) { row in
            var record = try R(row: row)
            record.mapPaths(paths.resolved)
            return record
        }
    }

    /// The records `clause` (a `WHERE …` of an indexed lookup, no `ORDER BY`) picks, in row order (`inRowOrder`). A
    /// lookup that finds a row or two sorts them here: an `ORDER BY` the index does not give makes SQLite build a
    /// sorter for every query, which cost more than reading the row (Benchmarks/INVESTIGATION.md, section 38).
    func fetchAllInRowOrder<R: TableRecord>(_ type: R.Type, _ clause: String, _ arguments: [Value], newestFirst: Bool = false,
                                            by areInOrder: ((R, R) -> Bool)? = nil) throws -> [R] {
        let paths = self.paths
        var records: [R] = [], rowids: [Int64] = []
        try database.forEach("SELECT *, rowid AS row_order FROM \(R.table) \(clause)", arguments) { row in
            var record = try R(row: row)
            record.mapPaths(paths.resolved)
            records.append(record)
            rowids.append(try row["row_order"] as Int64)
            return true
        }
        return CatalogueReader.inRowOrder(records, rowids: rowids, newestFirst: newestFirst, by: areInOrder)
    }

    /// `records` (read with their `rowids`) by `areInOrder`, the rowids breaking ties, oldest row first (newest with
    /// `newestFirst`): an `ORDER BY …, rowid` made in Swift, for the few rows of one lookup.
    static func inRowOrder<R>(_ records: [R], rowids: [Int64], newestFirst: Bool = false, by areInOrder: ((R, R) -> Bool)? = nil) -> [R] {
        guard records.count > 1 else { return records }
        return records.indices.sorted { a, b in
            if let areInOrder {
                if areInOrder(records[a], records[b]) { return true }
                if areInOrder(records[b], records[a]) { return false }
            }
            return newestFirst ? rowids[a] > rowids[b] : rowids[a] < rowids[b]
        }.map { records[$0] }
    }

    /// The same records handed to `body` one at a time as they are read, none kept (`Database.forEach`); `body`
    /// returns false to stop.
    func fetchEach<R: TableRecord>(_ type: R.Type, _ clause: String, _ arguments: [Value] = [], _ body: (R) throws -> Bool) throws {
        let paths = self.paths
        try database.forEach("SELECT * FROM \(R.table) \(clause)", arguments) { row in
            var record = try R(row: row)
            record.mapPaths(paths.resolved)
            return try body(record)
        }
    }
}

extension Catalogue {
    /// Adds `record` to its table. With `replacingOn` (a unique key's columns), a row with the same key is updated
    /// to the record's other values instead.
    func insertRow<R: TableRecord>(_ record: R, replacingOn key: [String] = []) throws {
        var stored = record
        stored.mapPaths(paths.stored)
        try insertRow(into: R.table, stored.values, replacingOn: key)
    }

    /// Adds a row of `values` to `table`; with `replacingOn`, updates the row with the same key instead. The SQL is
    /// built on the first call for a table and key and kept: every call for them binds the same list of columns.
    func insertRow(into table: String, _ values: [(column: String, value: Value)], replacingOn key: [String] = []) throws {
        let name = key.isEmpty ? table : table + " " + key.joined(separator: ",")
        if let sql = insertSQL[name] {
            try database.run(sql, values.map(\.value))
            return
        }
        var sql = "INSERT INTO \(table) (\(values.map(\.column).joined(separator: ", "))) VALUES ("
            + Array(repeating: "?", count: values.count).joined(separator: ",") + ")"
        if !key.isEmpty {
            let updates = values.map(\.column).filter { !key.contains($0) }.map { "\($0) = excluded.\($0)" }
            sql += " ON CONFLICT (\(key.joined(separator: ", "))) DO UPDATE SET \(updates.joined(separator: ", "))"
        }
        insertSQL[name] = sql
        try database.run(sql, values.map(\.value))
    }
}
