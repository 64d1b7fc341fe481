import SQLite

/// A rerun's first look at a file import finds (`Scheduler.probe`): the few columns that say whether the photo at a
/// path is unchanged and every stage up to date, read instead of the whole row, so a photo with nothing to do costs
/// a fraction of one taken through its chain (Benchmarks/INVESTIGATION.md, section 38).
///
/// A probed record holds the columns below and `blank`'s values elsewhere: it decides, and is never handed to a stage
/// that works, nor shown or written. What reads it: import's fast path (the file's stat, its sidecar's:
/// `ImportStage.unchanged`), the run's hold-back (`damage`) and settling (`replaces`), and a thumbnail's up-to-date
/// check (the look's hash from `hash` and the recipe, the parameters scoped by `format`; of a rendition, which one it
/// is, its file's path and size, and its hash for the step). A stage that decides from a probe
/// (`PhotoStage.probesUpToDate`) reads nothing else; ProbeTests hold its decisions to those on whole records.
///
/// The columns are read by position into their properties, each one's storage class checked (`Row.string(at:)`,
/// `integer(at:)`), not through the records' `Column` declarations: a key path and a closure a column cost a no-op
/// rerun more than the query (section 38).
extension CatalogueReader {
    /// The probe columns of `photos`, and of `renditions`, in the order `probedPhoto(_:)` and `probedRendition(_:)`
    /// read them.
    static let photoProbeColumns = """
        id, hash, path, bytes, mtime_ns, inode, format, added, filter_recipe, replaces, damage, sidecar, sidecar_bytes, \
        sidecar_mtime_ns, sidecar_inode, rowid
        """
    static let renditionProbeColumns = "photo, kind, params_hash, input_hash, path, file_hash, bytes, rowid"
    /// The two lookups' SQL, made once (asked twice a photo: a string made per call is hashed and compared anew).
    static let photoProbeSQL = "SELECT \(photoProbeColumns) FROM photos WHERE path = ?"
    static let renditionProbeSQL = "SELECT \(renditionProbeColumns) FROM renditions WHERE photo = ?"

    /// A photo from a row of `photoProbeColumns`, with its rowid; nil when a column holds what it should not (the whole
    /// row's read then says what: `photos(atPath:)`). `path`: the absolute path the row was found by (`path = ?`), the
    /// one its stored path resolves to, taken as it is.
    func probedPhoto(_ row: Row, foundAt path: String? = nil) -> (photo: PhotoRecord, rowid: Int64)? {
        guard let id = row.string(at: 0), let hash = row.string(at: 1), let stored = row.string(at: 2),
              let bytes = row.integer(at: 3), let mtime = row.integer(at: 4), let inode = row.integer(at: 5),
              let format = row.string(at: 6), let added = row.string(at: 7), let recipe = row.string(at: 8),
              let rowid = row.integer(at: 15) else { return nil }
        // Each optional column NULL or of its kind.
        func optional<T>(_ index: Int, _ value: (Int) -> T?) -> T?? {
            row.isNull(at: index) ? .some(nil) : value(index).map { .some($0) }
        }
        guard let replaces = optional(9, row.string), let damage = optional(10, row.string),
              let sidecar = optional(11, row.string), let sidecarBytes = optional(12, row.integer),
              let sidecarModified = optional(13, row.integer), let sidecarInode = optional(14, row.integer) else { return nil }
        var photo = PhotoRecord.blank
        (photo.id, photo.hash, photo.path, photo.bytes, photo.mtimeNanoseconds, photo.inode) = (id, hash, path ?? paths.resolved(stored), bytes, mtime, inode)
        (photo.format, photo.added, photo.filterRecipe) = (format, added, recipe)
        (photo.replaces, photo.damage, photo.sidecar) = (replaces, damage, sidecar.map(paths.resolved))
        photo.sidecarIdentity = SidecarIdentity(bytes: sidecarBytes, inode: sidecarInode, mtimeNanoseconds: sidecarModified)
        return (photo, Int64(rowid))
    }

    /// A rendition from a row of `renditionProbeColumns`, with its rowid; nil when a column holds what it should not.
    func probedRendition(_ row: Row) -> (rendition: Rendition, rowid: Int64)? {
        guard let photo = row.string(at: 0), let kind = row.string(at: 1).flatMap(Rendition.Kind.init(rawValue:)),
              let parameters = row.string(at: 2), let input = row.string(at: 3), let stored = row.string(at: 4),
              let file = row.string(at: 5), let bytes = row.integer(at: 6), let rowid = row.integer(at: 7) else { return nil }
        var rendition = Rendition.blank
        (rendition.photo, rendition.kind, rendition.parametersHash, rendition.inputHash) = (photo, kind, parameters, input)
        (rendition.path, rendition.fileHash, rendition.bytes) = (paths.resolved(stored), file, bytes)
        return (rendition, Int64(rowid))
    }

    /// The photos recorded at `path`, newest added first (as `photos(atPath:)`), each with its probe columns alone;
    /// nil when a row is malformed.
    package func probedPhotos(atPath path: String) throws -> [PhotoRecord]? {
        var photos: [PhotoRecord] = [], rowids: [Int64] = [], malformed = false
        let absolute = path.utf8.first == UInt8(ascii: "/") ? path : nil  // what each row's stored path resolves to
        try database.forEach(CatalogueReader.photoProbeSQL, [.text(paths.stored(path))]) { row in
            guard let (photo, rowid) = probedPhoto(row, foundAt: absolute) else { malformed = true; return false }
            photos.append(photo)
            rowids.append(rowid)
            return true
        }
        guard !malformed else { return nil }
        return CatalogueReader.inRowOrder(photos, rowids: rowids, newestFirst: true, by: { $0.added > $1.added })
    }

    /// Every rendition of `photo`, oldest first (as `renditions(photo:)`), each with its probe columns alone; nil
    /// when a row is malformed.
    package func probedRenditions(photo: String) throws -> [Rendition]? {
        var renditions: [Rendition] = [], rowids: [Int64] = [], malformed = false
        try database.forEach(CatalogueReader.renditionProbeSQL, [.text(photo)]) { row in
            guard let (rendition, rowid) = probedRendition(row) else { malformed = true; return false }
            renditions.append(rendition)
            rowids.append(rowid)
            return true
        }
        guard !malformed else { return nil }
        return CatalogueReader.inRowOrder(renditions, rowids: rowids)
    }
}
