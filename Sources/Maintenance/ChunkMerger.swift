import SQLite
import Catalogue

/// What merging one chunk carried into the catalogue.
public struct MergedChunk: Sendable, Equatable {
    public var chunk: Int
    /// The chunk's attempts (its runs), each now a run row under the parent.
    public var attempts: [Int64]
    /// Photos the chunk added or changed, renditions it recorded or replaced, and its step rows.
    public var photos = 0
    public var renditions = 0
    public var steps = 0
    /// The photos with a failed step in one of the chunk's attempts that no later attempt did.
    public var failedPhotos = 0
    /// Each export refused because another photo's file was at its path: "PATH: reason".
    public var collisions: [String] = []
}

/// `album merge`'s three-way merge of one chunk's database into the catalogue, as a service above the store: it
/// speaks SQL across two databases (the catalogue and the chunk's delta, `ATTACH`ed), through the
/// writer's connection (`Catalogue.connection`) and in the writer's transaction, so only a `Catalogue` can merge.
public struct ChunkMerger {
    /// The catalogue the chunks are merged into, under its lock.
    public let catalogue: Catalogue

    public init(_ catalogue: Catalogue) {
        self.catalogue = catalogue
    }

    /// Carries chunk `chunk` of distributed run `parent` from its database `chunkFile` into the catalogue, in one
    /// transaction, as a three-way merge against the rows the chunk started from, which its delta carries
    /// (`chunk_base_*`: each touched photo's rows as the chunk first read them, `Catalogue.chunkTouchLog`):
    /// - the chunk's earlier merge is taken back first (its run rows, and with them their steps), so merging a chunk
    ///   again replaces its rows and changes no count;
    /// - each attempt of the chunk (a run row under the parent in the chunk's database) becomes a run row here, under
    ///   the parent, with its host, versions and times; its steps follow it;
    /// - a photo the chunk changed (a row that differs from its base) is updated; a photo it added is inserted
    ///   unless another chunk added the same bytes first (the id is the bytes' hash: `PhotoRecord.id(forHash:)`),
    ///   and then the chunk's path is recorded as another name of it, as one run would have;
    /// - aliases, second originals and renditions the chunk added or changed are written over theirs (by photo and
    ///   path, a second original's path one photo's at a time; by photo, kind and path), and those it removed are
    ///   removed.
    /// - Throws: `CatalogueError` for a chunk database of another schema version.
    public func merge(database chunkFile: String, parent: Int64, chunk: Int, merged time: String) throws -> MergedChunk {
        try catalogue.connection { database in try merge(database, chunkFile, parent: parent, chunk: chunk, merged: time) }
    }

    private func merge(_ database: Database, _ chunkFile: String, parent: Int64, chunk: Int,
                       merged time: String) throws -> MergedChunk {
        try database.run("ATTACH DATABASE ? AS chunk", [.text(chunkFile)])
        defer { try? database.execute("DETACH DATABASE chunk") }
        let version = try database.query("PRAGMA chunk.user_version") { $0.int(0) ?? 0 }.first ?? 0
        guard version == Schema.currentVersion else {
            throw CatalogueError("chunk catalogue \(chunkFile) has schema version \(version); this album merges version \(Schema.currentVersion)")
        }
        return try catalogue.transaction {
            var result = MergedChunk(chunk: chunk, attempts: [])
            let key: [Value] = [.integer(parent), .int(chunk)]
            try database.run("DELETE FROM main.runs WHERE parent = ? AND chunk = ?", key)
            try database.execute("CREATE TEMP TABLE IF NOT EXISTS merge_runs (old INTEGER PRIMARY KEY, new INTEGER NOT NULL)")
            try database.execute("DELETE FROM temp.merge_runs")
            let runColumns = try columns(database, of: "runs").filter { $0 != "id" }.joined(separator: ", ")
            for old in try database.query("SELECT id FROM chunk.runs WHERE parent = ? AND chunk = ? ORDER BY id", key, { try $0["id"] as Int64 }) {
                try database.run("INSERT INTO main.runs (\(runColumns)) SELECT \(runColumns) FROM chunk.runs WHERE id = ?", [.integer(old)])
                let new = database.lastInsertRowID
                try database.run("INSERT INTO temp.merge_runs (old, new) VALUES (?, ?)", [.integer(old), .integer(new)])
                result.attempts.append(new)
            }

            // Only the photos the chunk wrote rows of (`chunk_touched`, logged by the chunk database's triggers) are
            // compared with their base and carried: every statement below looks rows up by these photos' ids, so
            // the merge costs the chunk's share, never the catalogue's size (each DELETE names `photo IN` first, so
            // that SQLite searches the table's index by photo instead of scanning it: EXPLAIN QUERY PLAN).
            try database.execute("CREATE TEMP TABLE IF NOT EXISTS merge_touched (photo TEXT PRIMARY KEY) WITHOUT ROWID")
            try database.execute("DELETE FROM temp.merge_touched")
            try database.execute("INSERT INTO temp.merge_touched SELECT photo FROM chunk.chunk_touched")
            let touched = "(SELECT photo FROM temp.merge_touched)"
            let photoColumns = try columns(database, of: "photos")
            let photoList = photoColumns.joined(separator: ", ")
            let updates = photoColumns.filter { $0 != "id" }.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
            try database.execute("""
                INSERT INTO main.photos (\(photoList))
                    SELECT \(photoList) FROM (SELECT * FROM chunk.photos WHERE id IN \(touched)
                                              EXCEPT SELECT * FROM chunk.chunk_base_photos WHERE id IN \(touched)) AS c
                    WHERE EXISTS (SELECT 1 FROM chunk.chunk_base_photos AS s WHERE s.id = c.id)
                    ON CONFLICT (id) DO UPDATE SET \(updates)
                """)
            result.photos += try changes(database)
            try database.execute("""
                INSERT INTO main.photos (\(photoList))
                    SELECT \(photoList) FROM chunk.photos AS c
                    WHERE c.id IN \(touched) AND NOT EXISTS (SELECT 1 FROM chunk.chunk_base_photos AS s WHERE s.id = c.id)
                    ON CONFLICT DO NOTHING
                """)
            result.photos += try changes(database)
            // The same new bytes found by another chunk first, under another name: this chunk's name is an alias.
            try database.execute("""
                INSERT INTO main.aliases (photo, path, bytes, mtime_ns, inode, added)
                    SELECT c.id, c.path, c.bytes, c.mtime_ns, c.inode, c.added
                    FROM chunk.photos AS c JOIN main.photos AS m ON m.id = c.id
                    WHERE c.id IN \(touched) AND NOT EXISTS (SELECT 1 FROM chunk.chunk_base_photos AS s WHERE s.id = c.id) AND m.path != c.path
                    ON CONFLICT DO NOTHING
                """)

            let aliasColumns = try columns(database, of: "aliases").joined(separator: ", ")
            try database.execute("""
                INSERT INTO main.aliases (\(aliasColumns))
                    SELECT \(aliasColumns) FROM (SELECT * FROM chunk.aliases WHERE photo IN \(touched)
                                                EXCEPT SELECT * FROM chunk.chunk_base_aliases WHERE photo IN \(touched)) AS c
                    WHERE EXISTS (SELECT 1 FROM main.photos AS m WHERE m.id = c.photo)
                    ON CONFLICT (photo, path) DO UPDATE SET bytes = excluded.bytes, mtime_ns = excluded.mtime_ns,
                        inode = excluded.inode, added = excluded.added
                """)
            try database.execute("""
                DELETE FROM main.aliases WHERE photo IN \(touched) AND (photo, path) IN
                    (SELECT photo, path FROM chunk.chunk_base_aliases WHERE photo IN \(touched)
                     EXCEPT SELECT photo, path FROM chunk.aliases WHERE photo IN \(touched))
                """)

            // Second originals (a pair's other file) as aliases, by photo and path; a path is one photo's at a time.
            let secondList = try columns(database, of: "second_originals").joined(separator: ", ")
            try database.execute("CREATE TEMP TABLE IF NOT EXISTS merge_seconds AS SELECT * FROM main.second_originals WHERE 0")
            try database.execute("DELETE FROM temp.merge_seconds")
            try database.execute("""
                INSERT INTO temp.merge_seconds (\(secondList))
                    SELECT \(secondList) FROM (SELECT * FROM chunk.second_originals WHERE photo IN \(touched)
                                              EXCEPT SELECT * FROM chunk.chunk_base_second_originals WHERE photo IN \(touched)) AS c
                    WHERE EXISTS (SELECT 1 FROM main.photos AS m WHERE m.id = c.photo)
                """)
            try database.execute("""
                DELETE FROM main.second_originals WHERE path IN (SELECT path FROM temp.merge_seconds)
                    OR (photo IN \(touched) AND (photo, path) IN (SELECT photo, path FROM chunk.chunk_base_second_originals WHERE photo IN \(touched)
                                         EXCEPT SELECT photo, path FROM chunk.second_originals WHERE photo IN \(touched)))
                """)
            try database.execute("INSERT INTO main.second_originals (\(secondList)) SELECT \(secondList) FROM temp.merge_seconds")

            let renditionColumns = try columns(database, of: "renditions").filter { $0 != "id" && $0 != "run" }
            let renditionList = renditionColumns.joined(separator: ", ")
            let renditionUpdates = (renditionColumns + ["run"]).map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
            try database.execute("""
                INSERT INTO main.renditions (\(renditionList), run)
                    SELECT \(renditionList), COALESCE((SELECT new FROM temp.merge_runs WHERE old = c.run), c.run)
                    FROM (SELECT * FROM chunk.renditions WHERE photo IN \(touched)
                          EXCEPT SELECT * FROM chunk.chunk_base_renditions WHERE photo IN \(touched)) AS c
                    WHERE EXISTS (SELECT 1 FROM main.photos AS m WHERE m.id = c.photo)
                    ON CONFLICT (photo, kind, path) DO UPDATE SET \(renditionUpdates)
                """)
            result.renditions += try changes(database)
            try database.execute("""
                DELETE FROM main.renditions WHERE photo IN \(touched) AND (photo, kind, path) IN
                    (SELECT photo, kind, path FROM chunk.chunk_base_renditions WHERE photo IN \(touched)
                     EXCEPT SELECT photo, kind, path FROM chunk.renditions WHERE photo IN \(touched))
                """)
            result.renditions += try changes(database)

            let stepColumns = try columns(database, of: "steps").filter { $0 != "id" && $0 != "run" && $0 != "photo" }
            let stepList = stepColumns.joined(separator: ", ")
            try database.execute("""
                INSERT INTO main.steps (run, photo, \(stepList))
                    SELECT m.new, CASE WHEN EXISTS (SELECT 1 FROM main.photos AS p WHERE p.id = s.photo) THEN s.photo END, \(stepColumns.map { "s." + $0 }.joined(separator: ", "))
                    FROM temp.merge_runs AS m CROSS JOIN chunk.steps AS s ON m.old = s.run
                """)
            result.steps = try changes(database)

            // A failure stands unless a later attempt of the chunk did that step: a damaged photo a rerun held back
            // is still failed, a photo whose rerun succeeded is not.
            let unresolved = """
                FROM main.steps AS f WHERE f.run IN (SELECT new FROM temp.merge_runs) AND f.status = 'failed'
                    AND NOT EXISTS (SELECT 1 FROM main.steps AS d WHERE d.run IN (SELECT new FROM temp.merge_runs)
                        AND d.status = 'done' AND d.stage = f.stage AND d.id > f.id
                        AND COALESCE(d.photo, d.path) = COALESCE(f.photo, f.path))
                """
            result.failedPhotos = try database.query("SELECT COUNT(DISTINCT COALESCE(f.photo, f.path)) " + unresolved) { $0.int(0) ?? 0 }.first ?? 0
            result.collisions = try database.query("SELECT f.path, f.error " + unresolved + """
                    AND f.stage = 'export' AND f.error LIKE '%already exists and album did not export it for this photo%'
                """) { "\(try $0["path"] as String): \((try $0["error"] as String?) ?? "")" }
            try catalogue.recordMergedChunk(DistributedChunkRecord(run: parent, chunk: chunk, merged: time, photos: result.photos,
                                                                   failed: result.failedPhotos))
            return result
        }
    }

    /// The rows the last statement changed.
    private func changes(_ database: Database) throws -> Int {
        try database.query("SELECT changes()") { $0.int(0) ?? 0 }.first ?? 0
    }

    /// The columns of `table` in the main schema, in their order.
    private func columns(_ database: Database, of table: String) throws -> [String] {
        try database.query("SELECT name FROM pragma_table_info(?)", [.text(table)]) { try $0["name"] as String }
    }
}
