import SQLite
import System

extension CatalogueReader {
    /// The catalogue's stable id: 32 hex digits made once by the schema migration that created the `identity` table
    /// (version 4), kept when the catalogue folder moves. Exports carry it in their tag (`ExportTag.catalogue`), so
    /// that a catalogue tells its own exports from another catalogue's. A copy of the folder (`cp -r`) is a second
    /// catalogue with the same id: album cannot tell those two apart.
    public func identity() throws -> String {
        guard let id = try fetchAll(CatalogueIdentity.self, "LIMIT 1").first?.id else {
            throw CatalogueError("catalogue \(folder) has no identity row; it was damaged after its migration (album verify says more)")
        }
        return id
    }

    /// The id of the other catalogue whose export tag the file at `path` carries, or nil when the file carries none,
    /// an older album's (no id: trusted here, where a row records the file), or `catalogue`'s own.
    /// `rm` and `gc` keep such a file; `verify` reports it.
    package static func otherOwner(of path: String, in catalogue: CatalogueReader) throws -> String? {
        guard let owner = ExportTag.of(path)?.catalogue else { return nil }
        return owner == (try catalogue.identity()) ? nil : owner
    }
}
