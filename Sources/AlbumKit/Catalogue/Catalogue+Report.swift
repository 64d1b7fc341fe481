import SQLite

extension Catalogue {
    /// Every step of a run, in the order they were recorded.
    public func steps(run: Int64) throws -> [StepRecord] {
        try database.query("""
            SELECT run, photo, path, stage, params, input_hash, output_hash, ms, status, error
            FROM steps WHERE run = ? ORDER BY id
            """, [.integer(run)]) { row in
            StepRecord(run: Int64(row.int(0) ?? 0), photo: row.text(1), path: row.text(2) ?? "",
                       stage: StageName(rawValue: row.text(3) ?? "") ?? .import, parameters: row.text(4) ?? "{}",
                       inputHash: row.text(5), outputHash: row.text(6), milliseconds: row.double(7) ?? 0,
                       status: StepRecord.Status(rawValue: row.text(8) ?? "") ?? .failed, error: row.text(9))
        }
    }

    /// The photo with exactly this id, if any.
    public func photo(id: String) throws -> PhotoRecord? {
        try database.query("SELECT \(Self.photoColumns) FROM photos WHERE id = ?", [.text(id)], Self.photo).first
    }
}
