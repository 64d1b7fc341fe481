import SQLite
import Core

/// A photo is one row of `photos`: each column declared once, in the schema's order, with its place in the photo's
/// JSON (`PhotoRecord+JSON`; the fast path's `mtime_ns` and `inode`, `damage` and `missing_kept` are not shown there).
extension PhotoRecord: TableRecord {
    package static let table = "photos"

    package static let columns: [Column<PhotoRecord>] = [
        .column("id", "TEXT PRIMARY KEY", \.id, json: 1),
        .column("hash", "TEXT NOT NULL UNIQUE", \.hash, json: 3),
        .column("path", "TEXT NOT NULL", \.path, json: 2),
        .column("bytes", "INTEGER NOT NULL", \.bytes, json: 4),
        .column("mtime_ns", "INTEGER NOT NULL", \.mtimeNanoseconds),
        .column("inode", "INTEGER NOT NULL", \.inode),
        .column("width", "INTEGER NOT NULL", \.width, json: 5),
        .column("height", "INTEGER NOT NULL", \.height, json: 6),
        .column("format", "TEXT NOT NULL", \.format, json: 7),
        .column("taken", "TEXT", \.taken, json: 8),
        .column("added", "TEXT NOT NULL", \.added, json: 9, encoded: { .string(Timestamp.utc($0)) }),
        .column("caption", "TEXT", \.caption, json: 10),
        .column("filter", "TEXT NOT NULL DEFAULT 'none'", \.filter, json: 11),
        .column("filter_recipe", "TEXT NOT NULL DEFAULT '[]'", \.filterRecipe, json: 12,
                encoded: { JSONValue(parsing: $0) ?? .string($0) }),  // the recipe as JSON, not as a string
        .column("camera", "TEXT", \.camera, json: 13),
        .column("orientation", "INTEGER NOT NULL DEFAULT 1", \.orientation, json: 14),
        .column("has_gps", "INTEGER NOT NULL DEFAULT 0", \.hasGPS, json: 15),
        .column("replaces", "TEXT REFERENCES photos(id) ON DELETE SET NULL", \.replaces, json: 16),
        .column("stored_path", "TEXT", \.storedPath, json: 17),
        .column("damage", "TEXT", \.damage, since: 5),
        .column("missing_kept", "TEXT", \.missingKept, since: 5),
        .column("lens", "TEXT", \.lens, since: 8, json: 18),
        // XMP's facts (issue 32): a sidecar's over the embedded packet's; the sidecar's path and stat (not shown),
        // so a changed, added or removed sidecar is noticed at the cost of a stat.
        .column("rating", "INTEGER", \.rating, since: 8, json: 19),
        .column("label", "TEXT", \.label, since: 8, json: 20),
        .column("keywords", "TEXT", \.storedKeywords, since: 8, json: 21,
                encoded: { $0.flatMap { JSONValue(parsing: $0) } ?? .array([]) }),  // a JSON array of strings
        .column("title", "TEXT", \.title, since: 8, json: 22),
        .column("sidecar", "TEXT", \.sidecar, since: 8, json: 23),
        .column("sidecar_bytes", "INTEGER", \.sidecarIdentity.bytes, since: 8),
        .column("sidecar_mtime_ns", "INTEGER", \.sidecarIdentity.mtimeNanoseconds, since: 8),
        .column("sidecar_inode", "INTEGER", \.sidecarIdentity.inode, since: 8),
        .column("xmp_problem", "TEXT", \.xmpProblem, since: 8, json: 24),
        .column("description", "TEXT", \.xmpDescription, since: 8, json: 25),
        // A Motion Photo's movie (issue 33): its first byte and length in the original, nil for a still.
        .column("motion_offset", "INTEGER", \.motionOffset, since: 9, json: 26),
        .column("motion_length", "INTEGER", \.motionLength, since: 9, json: 27),
        // A video's facts (issue 33): NULL for a still, and for a video imported before (read when its bytes are
        // next imported, or by `album run --force`).
        .column("duration", "REAL", \.duration, since: 10, json: 28),
        .column("codec", "TEXT", \.codec, since: 10, json: 29),
        .column("frame_rate", "REAL", \.frameRate, since: 10, json: 30),
        .column("latitude", "REAL", \.latitude, since: 10, json: 31),
        .column("longitude", "REAL", \.longitude, since: 10, json: 32),
    ]

    /// The gallery's order, newest added first: `allPhotos` and `forEachPhoto`.
    static let newestFirst = "ORDER BY added DESC, rowid DESC"

    /// `replaces` looked up for one photo (`isSuperseded(photo:)`) and set to NULL when the photo it names is deleted
    /// (`album prune`): without it each of those read the whole table.
    package static let addedIndexes = [TableIndex("photos_replaces", on: "photos(replaces)", since: 9)]

    package static let blank = PhotoRecord(id: "", hash: "", path: "", bytes: 0, mtimeNanoseconds: 0, inode: 0, width: 0, height: 0,
                                   format: "", taken: nil, added: "", caption: nil, filter: "", filterRecipe: "", camera: nil,
                                   orientation: 0, hasGPS: false, replaces: nil, storedPath: nil)

    /// The original's path is stored relative to the catalogue when it lies under the folder's parent.
    package mutating func mapPaths(_ transform: (String) -> String) {
        path = transform(path)
        sidecar = sidecar.map(transform)
    }

    /// `keywords` as the column holds them: a JSON array of strings, NULL for none.
    var storedKeywords: String? {
        get { keywords.isEmpty ? nil : JSONValue.array(keywords.map { .string($0) }).text }
        set {
            guard let newValue, case .array(let items)? = JSONValue(parsing: newValue) else { keywords = []; return }
            keywords = items.compactMap { if case .string(let text) = $0 { text } else { nil } }
        }
    }
}
