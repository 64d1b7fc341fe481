import SQLite

extension Catalogue {
    /// Every step recorded for `photo`, oldest first, with its run's job.
    public func history(photo: String) throws -> [HistoryEntry] {
        try database.query("""
            SELECT \(HistoryEntry.selection) FROM steps s JOIN runs r ON r.id = s.run WHERE s.photo = ? ORDER BY s.id
            """, [.text(photo)], HistoryEntry.init(row:))
    }
}
