import SQLite

extension CatalogueReader {
    /// Every step recorded for `photo`, oldest first, with its run's job: what changed it and what failed (a skipped
    /// step is no row, only a count on its run).
    public func history(photo: String) throws -> [HistoryEntry] {
        try database.query("""
            SELECT \(HistoryEntry.selection) FROM steps s JOIN runs r ON r.id = s.run WHERE s.photo = ? ORDER BY s.id
            """, [.text(photo)], HistoryEntry.init(row:))
    }
}
