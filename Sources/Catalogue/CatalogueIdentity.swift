import SQLite

/// The catalogue's identity: the one row of `identity` (schema version 4), made by that migration with a random
/// `id` and never written again (`CatalogueReader.identity()`). The table fills both columns; album only reads them.
struct CatalogueIdentity: Sendable, Equatable {
    /// 32 hex digits.
    package var id: String
    /// When the migration made it (UTC).
    package var created: String
}

extension CatalogueIdentity: TableRecord {
    package static let table = "identity"

    package static let columns: [Column<CatalogueIdentity>] = [
        .column("id", "TEXT NOT NULL", \.id, since: 4, written: false),
        .column("created", "TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))", \.created, since: 4, written: false),
    ]

    package static let blank = CatalogueIdentity(id: "", created: "")
}
