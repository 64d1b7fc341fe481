import SQLite

extension Catalogue {
    private static let renditionColumns = "photo, kind, params_hash, input_hash, path, file_hash, width, height, bytes, run"

    /// The recorded rendition of `photo` made by the same parameters from the same input, if any.
    public func rendition(photo: String, kind: Rendition.Kind, parametersHash: String, inputHash: String) throws -> Rendition? {
        try database.query("""
            SELECT \(Self.renditionColumns) FROM renditions
            WHERE photo = ? AND kind = ? AND params_hash = ? AND input_hash = ? ORDER BY id DESC LIMIT 1
            """, [.text(photo), .text(kind.rawValue), .text(parametersHash), .text(inputHash)], Self.rendition).first
    }

    /// Every rendition of `photo`.
    public func renditions(photo: String) throws -> [Rendition] {
        try database.query("SELECT \(Self.renditionColumns) FROM renditions WHERE photo = ? ORDER BY id",
                           [.text(photo)], Self.rendition)
    }

    /// Every rendition of `kind`, or every rendition when `kind` is nil.
    public func renditions(kind: Rendition.Kind?) throws -> [Rendition] {
        guard let kind else {
            return try database.query("SELECT \(Self.renditionColumns) FROM renditions ORDER BY id", [], Self.rendition)
        }
        return try database.query("SELECT \(Self.renditionColumns) FROM renditions WHERE kind = ? ORDER BY id",
                                  [.text(kind.rawValue)], Self.rendition)
    }

    /// Whether any rendition row records the file at `path`.
    public func isRecorded(path: String) throws -> Bool {
        try database.query("SELECT 1 FROM renditions WHERE path = ? LIMIT 1", [.text(path)]) { _ in true }.first ?? false
    }

    /// Forgets the rendition row of `photo`'s `kind` file at `path` (the file itself is the caller's).
    public func forgetRendition(photo: String, kind: Rendition.Kind, path: String) throws {
        try database.run("DELETE FROM renditions WHERE photo = ? AND kind = ? AND path = ?",
                         [.text(photo), .text(kind.rawValue), .text(path)])
    }

    /// Records a rendition, replacing the row for the same photo, kind and file.
    public func record(_ rendition: Rendition) throws {
        try database.run("""
            INSERT INTO renditions (\(Self.renditionColumns)) VALUES (?,?,?,?,?,?,?,?,?,?)
            ON CONFLICT (photo, kind, path) DO UPDATE SET params_hash = excluded.params_hash,
                input_hash = excluded.input_hash, file_hash = excluded.file_hash, width = excluded.width,
                height = excluded.height, bytes = excluded.bytes, run = excluded.run
            """, [
            .text(rendition.photo), .text(rendition.kind.rawValue), .text(rendition.parametersHash),
            .text(rendition.inputHash), .text(rendition.path), .text(rendition.fileHash), .int(rendition.width),
            .int(rendition.height), .int(rendition.bytes), .integer(rendition.run),
        ])
    }

    private static func rendition(from row: Row) -> Rendition {
        Rendition(photo: row.text(0) ?? "", kind: Rendition.Kind(rawValue: row.text(1) ?? "") ?? .export,
                  parametersHash: row.text(2) ?? "", inputHash: row.text(3) ?? "", path: row.text(4) ?? "",
                  fileHash: row.text(5) ?? "", width: row.int(6) ?? 0, height: row.int(7) ?? 0,
                  bytes: row.int(8) ?? 0, run: Int64(row.int(9) ?? 0))
    }
}
