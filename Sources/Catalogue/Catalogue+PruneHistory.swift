import SQLite

extension CatalogueReader {
    /// The skipped step rows outside each photo's last `keep` runs (a row without a photo counts by its path).
    /// Done and failed rows are never among them.
    fileprivate static func thinnedSteps(keeping keep: Int) -> (sql: String, arguments: [Value]) {
        ("""
         SELECT id FROM (SELECT id, status, dense_rank() OVER (PARTITION BY coalesce(photo, 'path:' || path) ORDER BY run DESC) AS recent
                         FROM steps) WHERE status = 'skipped' AND recent > ?
         """, [.int(keep)])
    }

    /// How many step rows `--history KEEP` removes.
    package func thinnedHistoryCount(keeping keep: Int) throws -> Int {
        let (sql, arguments) = Catalogue.thinnedSteps(keeping: keep)
        return try database.query("SELECT COUNT(*) AS count FROM (\(sql))", arguments) { try $0["count"] as Int }.first ?? 0
    }
}

extension Catalogue {
    /// Removes the skipped step rows outside each photo's last `keep` runs (inside the caller's transaction).
    package func thinHistory(keeping keep: Int) throws {
        let (sql, arguments) = Catalogue.thinnedSteps(keeping: keep)
        try database.run("DELETE FROM steps WHERE id IN (\(sql))", arguments)
    }
}
