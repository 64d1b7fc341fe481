import SQLite

/// SQLite's own checks of the database, and rows whose photo or run is not there: what `album verify`
/// (`Verifier`) reports before it checks any file. Read-only, like every `CatalogueReader` method.
extension CatalogueReader {
    /// A row that points at a photo or a run the catalogue does not hold.
    public enum DanglingRow: Sendable {
        /// A rendition whose photo is gone (`key`: the photo).
        case renditionPhoto
        /// A step whose photo is gone (`key`: the photo; a step's photo may be NULL, which is not dangling).
        case stepPhoto
        /// A step whose run is gone (`key`: the run).
        case stepRun
    }

    /// `PRAGMA integrity_check`'s findings, one a line; empty when it finds nothing.
    public func integrityFindings() throws -> [String] {
        CatalogueReader.findingLines(try database.query("PRAGMA integrity_check", [], { $0.text(0) ?? "" })).filter { $0 != "ok" }
    }

    /// `PRAGMA quick_check`'s findings, one a line; empty when it finds nothing. It reads every page and checks the
    /// b-trees, the free list and NOT NULL, but not UNIQUE nor indexes against their tables (`album verify --quick`).
    public func quickCheckFindings() throws -> [String] {
        CatalogueReader.findingLines(try database.query("PRAGMA quick_check", [], { $0.text(0) ?? "" })).filter { $0 != "ok" }
    }

    /// `PRAGMA foreign_key_check`'s rows: the table, the row id and the parent table it names.
    public func foreignKeyViolations() throws -> [(table: String, row: Int, parent: String)] {
        try database.query("PRAGMA foreign_key_check", [], { ($0.text(0) ?? "", $0.int(1) ?? 0, $0.text(2) ?? "") })
    }

    /// Every row that points at a photo or a run not in the catalogue, with its path (a rendition's resolved) and the
    /// key it names. Read by position: a damaged file still gives these.
    public func danglingRows() throws -> [(row: DanglingRow, path: String, key: String)] {
        let queries: [(DanglingRow, String)] = [
            (.renditionPhoto, "SELECT path, photo FROM renditions WHERE photo NOT IN (SELECT id FROM photos)"),
            (.stepPhoto, "SELECT path, photo FROM steps WHERE photo IS NOT NULL AND photo NOT IN (SELECT id FROM photos)"),
            (.stepRun, "SELECT path, run FROM steps WHERE run NOT IN (SELECT id FROM runs)"),
        ]
        var found: [(row: DanglingRow, path: String, key: String)] = []
        for (row, sql) in queries {
            for (path, key) in try database.query(sql, [], { ($0.text(0) ?? "", $0.text(1) ?? "") }) {
                // A rendition's stored path, resolved (a step's is absolute, and resolves to itself).
                found.append((row, paths.resolved(path), key))
            }
        }
        return found
    }
}
