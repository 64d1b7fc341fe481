import SQLite

extension CatalogueReader {
    /// Every rendition of `photo`, oldest first (`ORDER BY id`, sorted here: no sorter per lookup).
    public func renditions(photo: String) throws -> [Rendition] {
        try fetchAllInRowOrder(Rendition.self, "WHERE photo = ?", [.text(photo)])
    }

    /// Every rendition of `kind`, or every rendition when `kind` is nil.
    public func renditions(kind: Rendition.Kind?) throws -> [Rendition] {
        guard let kind else {
            return try fetchAll(Rendition.self, "ORDER BY id")
        }
        return try fetchAll(Rendition.self, "WHERE kind = ? ORDER BY id", [.text(kind.rawValue)])
    }

    /// The rendition rows that record the file at `path`.
    public func renditions(path: String) throws -> [Rendition] {
        try fetchAll(Rendition.self, "WHERE path = ? ORDER BY id", [.text(paths.stored(path))])
    }

    /// Whether any rendition row records the file at `path`.
    public func isRecorded(path: String) throws -> Bool {
        try database.query("SELECT 1 FROM renditions WHERE path = ? LIMIT 1", [.text(paths.stored(path))]) { _ in true }.first ?? false
    }

    /// The ids of the photos with a rendition row for the file at `path` (`rm --dry-run`).
    package func photos(recording path: String) throws -> [String] {
        try database.query("SELECT DISTINCT photo FROM renditions WHERE path = ?", [.text(paths.stored(path))]) { $0.text(0) ?? "" }
    }
}

extension Catalogue {
    /// Forgets the rendition row of `photo`'s `kind` file at `path` (the file itself is the caller's).
    public func forgetRendition(photo: String, kind: Rendition.Kind, path: String) throws {
        try database.run("DELETE FROM renditions WHERE photo = ? AND kind = ? AND path = ?",
                         [.text(photo), .text(kind.rawValue), .text(paths.stored(path))])
    }

    /// Marks the rendition row of `photo`'s `kind` file at `path` as being rewritten by `run`: its `bytes` become
    /// `Rendition.beingWritten`, so no check takes the file for up to date, and `verify` lists it as a file that
    /// run was writing until a run records the new file in its place. Committed durably before the file is replaced,
    /// so that after a power cut the row never claims bytes the file may no longer hold (docs/catalogue.md,
    /// "Durability").
    public func markBeingWritten(photo: String, kind: Rendition.Kind, path: String, run: Int64) throws {
        try database.run("UPDATE renditions SET bytes = ?, run = ? WHERE photo = ? AND kind = ? AND path = ?",
                         [.integer(Int64(Rendition.beingWritten)), .integer(run), .text(photo), .text(kind.rawValue), .text(paths.stored(path))])
    }

    /// Records a rendition, replacing the row for the same photo, kind and file.
    public func record(_ rendition: Rendition) throws {
        try insertRow(rendition, replacingOn: ["photo", "kind", "path"])
    }
}
