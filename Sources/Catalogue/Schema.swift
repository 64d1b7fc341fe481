import SQLite

/// The catalogue's schema, versioned with `PRAGMA user_version` and migrated forward in one transaction.
package enum Schema {
    /// The newest version this album writes: the fixed history's last, or a later `since` a column or an added index
    /// declares. An album that finds a larger number refuses the catalogue.
    package static let currentVersion: Int = {
        var version = migrations.count
        for record in records {
            for column in record.declaredColumns { version = max(version, column.since) }
            for index in record.addedIndexes { version = max(version, index.since) }
        }
        return version
    }()

    /// The records whose tables album writes, each declaring its columns once (`TableRecord.columns`).
    package static let records: [any TableRecord.Type] = [PhotoRecord.self, Rendition.self, RunRecord.self, StepRecord.self, PhotoAlias.self,
                                                          CatalogueIdentity.self, DistributedRecord.self, DistributedChunkRecord.self,
                                                          SecondOriginal.self]

    /// The SQL that takes a catalogue from `version - 1` to `version`: the fixed history's migration for the first
    /// seven versions (written by hand, never changed), then, made from the declarations, a `CREATE TABLE` (and its
    /// indexes) for each record whose table is declared `since` that version, an `ALTER TABLE … ADD COLUMN` for
    /// each column of an older table declared `since` it, and each index added `since` it (`TableIndex`).
    static func migration(to version: Int, records: [any TableRecord.Type] = Schema.records) -> String {
        let fixed = version <= migrations.count ? migrations[version - 1] : ""
        guard version > migrations.count else { return fixed }
        var statements = fixed.isEmpty ? [] : [fixed]
        for record in records where record.since == version {
            statements.append(record.definition(at: version) + ";")
            statements += record.indexes.map { $0 + ";" }
        }
        for record in records where record.since < version {
            let table = record.table
            for column in record.declaredColumns where column.since == version {
                statements.append("ALTER TABLE \(table) ADD COLUMN \(column.name) \(column.definition);")
            }
        }
        for record in records {
            statements += record.addedIndexes.filter { $0.since == version }.map { $0.definition + ";" }
        }
        return statements.joined(separator: "\n")
    }

    /// The fixed history: each migration takes the catalogue from version `index` to `index + 1`. A column added
    /// later is declared with its `since` (`Column`) and needs no entry here (`migration(to:)`).
    static let migrations: [String] = [
        """
        CREATE TABLE photos (
            id TEXT PRIMARY KEY,
            hash TEXT NOT NULL UNIQUE,
            path TEXT NOT NULL,
            bytes INTEGER NOT NULL,
            mtime_ns INTEGER NOT NULL,
            inode INTEGER NOT NULL,
            width INTEGER NOT NULL,
            height INTEGER NOT NULL,
            format TEXT NOT NULL,
            taken TEXT,
            added TEXT NOT NULL,
            caption TEXT,
            filter TEXT NOT NULL DEFAULT 'none',
            filter_recipe TEXT NOT NULL DEFAULT '[]',
            camera TEXT,
            orientation INTEGER NOT NULL DEFAULT 1,
            has_gps INTEGER NOT NULL DEFAULT 0,
            replaces TEXT REFERENCES photos(id) ON DELETE SET NULL,
            stored_path TEXT
        );
        CREATE INDEX photos_path ON photos(path);
        CREATE INDEX photos_taken ON photos(taken);
        CREATE INDEX photos_added ON photos(added);

        CREATE TABLE runs (
            id INTEGER PRIMARY KEY,
            job TEXT NOT NULL,
            job_path TEXT,
            job_hash TEXT,
            started TEXT NOT NULL,
            finished TEXT,
            status TEXT NOT NULL DEFAULT 'running',
            counts TEXT,
            album_version TEXT NOT NULL,
            vips_version TEXT NOT NULL,
            sqlite_version TEXT NOT NULL,
            host TEXT NOT NULL
        );

        CREATE TABLE renditions (
            id INTEGER PRIMARY KEY,
            photo TEXT NOT NULL REFERENCES photos(id) ON DELETE CASCADE,
            kind TEXT NOT NULL CHECK (kind IN ('filtered', 'thumbnail', 'export')),
            params_hash TEXT NOT NULL,
            input_hash TEXT NOT NULL,
            path TEXT NOT NULL,
            file_hash TEXT NOT NULL,
            width INTEGER NOT NULL,
            height INTEGER NOT NULL,
            bytes INTEGER NOT NULL,
            run INTEGER REFERENCES runs(id) ON DELETE SET NULL,
            UNIQUE (photo, kind, path)
        );
        CREATE INDEX renditions_lookup ON renditions(photo, kind, params_hash);

        CREATE TABLE steps (
            id INTEGER PRIMARY KEY,
            run INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
            photo TEXT REFERENCES photos(id) ON DELETE SET NULL,
            path TEXT NOT NULL,
            stage TEXT NOT NULL CHECK (stage IN ('import', 'filter', 'thumbnail', 'export')),
            params TEXT NOT NULL,
            input_hash TEXT,
            output_hash TEXT,
            ms REAL NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('done', 'skipped', 'failed')),
            error TEXT
        );
        CREATE INDEX steps_run ON steps(run);
        CREATE INDEX steps_photo ON steps(photo);
        """,
        // Version 2: `album caption` records a 'caption' step, and each step row says when it was written (`at`;
        // NULL for rows copied from version 1, which did not know).
        // SQLite cannot change a CHECK constraint, so steps is rebuilt and its rows copied (sqlite.org/lang_altertable.html,
        // "Making Other Kinds Of Table Schema Changes"); nothing references steps, so foreign keys stay on.
        """
        CREATE TABLE steps_v2 (
            id INTEGER PRIMARY KEY,
            run INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
            photo TEXT REFERENCES photos(id) ON DELETE SET NULL,
            path TEXT NOT NULL,
            stage TEXT NOT NULL CHECK (stage IN ('import', 'filter', 'thumbnail', 'export', 'caption')),
            params TEXT NOT NULL,
            input_hash TEXT,
            output_hash TEXT,
            ms REAL NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('done', 'skipped', 'failed')),
            error TEXT,
            at TEXT DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
        );
        INSERT INTO steps_v2 (id, run, photo, path, stage, params, input_hash, output_hash, ms, status, error, at)
            SELECT id, run, photo, path, stage, params, input_hash, output_hash, ms, status, error, NULL FROM steps;
        DROP TABLE steps;
        ALTER TABLE steps_v2 RENAME TO steps;
        CREATE INDEX steps_run ON steps(run);
        CREATE INDEX steps_photo ON steps(photo);
        """,
        // Version 3: a relocatable catalogue (`CataloguePaths`). Rendition paths under the catalogue folder become
        // relative to it, and originals' and exports' paths under the folder's parent become `../…`; other paths stay
        // absolute. `migrate` puts the folder (and its parent, NULL for `/`) in the temporary `migration_folder`
        // first; without that row (a new database built from these strings) nothing matches and nothing changes.
        // The rule runs in this order so that a path under the folder is never also taken for one under its parent.
        """
        CREATE TEMP TABLE IF NOT EXISTS migration_folder (folder TEXT NOT NULL, parent TEXT);
        UPDATE renditions SET path = substr(path, length(m.folder) + 2) FROM migration_folder AS m
            WHERE substr(path, 1, length(m.folder) + 1) = m.folder || '/';
        UPDATE renditions SET path = '../' || substr(path, length(m.parent) + 2) FROM migration_folder AS m
            WHERE m.parent IS NOT NULL AND substr(path, 1, length(m.parent) + 1) = m.parent || '/';
        UPDATE photos SET path = substr(path, length(m.folder) + 2) FROM migration_folder AS m
            WHERE substr(path, 1, length(m.folder) + 1) = m.folder || '/';
        UPDATE photos SET path = '../' || substr(path, length(m.parent) + 2) FROM migration_folder AS m
            WHERE m.parent IS NOT NULL AND substr(path, 1, length(m.parent) + 1) = m.parent || '/';
        DROP TABLE temp.migration_folder;
        """,
        // Version 4: the catalogue's identity, a random id made once, here (for a new catalogue as for one migrated
        // from an older version), and never changed. Exports are tagged with it, so a catalogue tells its own
        // exports from another catalogue's in a shared folder (ExportStage, docs/catalogue.md "Who owns an export").
        // Written to run again harmlessly: an identity already there (a catalogue whose user_version was set back
        // by hand) is kept, never replaced.
        """
        CREATE TABLE IF NOT EXISTS identity (
            id TEXT NOT NULL,
            created TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
        );
        INSERT INTO identity (id) SELECT lower(hex(randomblob(16))) WHERE NOT EXISTS (SELECT 1 FROM identity);
        """,
        // Version 5: the photo lifecycle (docs/catalogue.md "A photo's life"). `photos.damage` holds why the photo's
        // pixels could not be decoded, found by the run that met the damage (NULL: none found). A photo is one set of
        // bytes, so new bytes at its path are a new photo without it. `aliases` holds the other paths where the same
        // bytes were found (the photo's `path` is the first), each with its stat, stored like `photos.path`
        // (`CataloguePaths`). `photos.missing_kept` is when `album prune --keep-missing` kept the photo while its
        // original was gone (verify then reports it as a state the user chose, not a problem). `runs.stages` is each
        // stage the run applied with its parameters' hash, JSON (`album prune` keeps the renditions they produce).
        """
        ALTER TABLE photos ADD COLUMN damage TEXT;
        ALTER TABLE photos ADD COLUMN missing_kept TEXT;
        ALTER TABLE runs ADD COLUMN stages TEXT;
        CREATE TABLE aliases (
            photo TEXT NOT NULL REFERENCES photos(id) ON DELETE CASCADE,
            path TEXT NOT NULL,
            bytes INTEGER NOT NULL,
            mtime_ns INTEGER NOT NULL,
            inode INTEGER NOT NULL,
            added TEXT NOT NULL,
            PRIMARY KEY (photo, path)
        );
        CREATE INDEX aliases_path ON aliases(path);
        """,
        // Version 6: distributed runs (docs/distributed.md). A distributed run is one parent row of `runs` (status
        // `distributed` while it is open); each attempt of each chunk, merged from its chunk catalogue, is a row of its
        // own under it (`parent`, `chunk`), with its host, versions and times. `distributed` holds the open or
        // finished run's folder (relative to the catalogue) and engine; `distributed_chunks` when each chunk was
        // merged. While a row of `distributed` is `open`, gc, prune, rm, relocate and other runs refuse.
        """
        ALTER TABLE runs ADD COLUMN parent INTEGER REFERENCES runs(id) ON DELETE CASCADE;
        ALTER TABLE runs ADD COLUMN chunk INTEGER;
        CREATE INDEX runs_parent ON runs(parent);
        CREATE TABLE distributed (
            run INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
            folder TEXT NOT NULL,
            engine TEXT NOT NULL,
            chunks INTEGER NOT NULL,
            state TEXT NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'merged', 'abandoned')),
            created TEXT NOT NULL,
            ended TEXT
        );
        CREATE TABLE distributed_chunks (
            run INTEGER NOT NULL REFERENCES distributed(run) ON DELETE CASCADE,
            chunk INTEGER NOT NULL,
            merged TEXT NOT NULL,
            photos INTEGER NOT NULL,
            failed INTEGER NOT NULL,
            PRIMARY KEY (run, chunk)
        );
        """,
        // Version 7: a stage or a rendition kind is text that album's Swift types check (a row with a value they do not
        // know fails to read, naming its table and column), not an SQL `CHECK`: a new stage or kind of rendition then
        // needs no table rebuild. SQLite cannot drop a CHECK constraint, so `renditions` and `steps` are rebuilt one
        // last time and their rows copied with their ids (sqlite.org/lang_altertable.html, "Making Other Kinds Of
        // Table Schema Changes"); the columns keep their order, so `SELECT *` reads the same rows. `steps.status`
        // and `distributed.state` keep their CHECKs: those are album's own closed sets, not the plug-ins'. Nothing
        // references either table, so foreign keys stay on; the rows' own references are unchanged.
        """
        CREATE TABLE renditions_v7 (
            id INTEGER PRIMARY KEY,
            photo TEXT NOT NULL REFERENCES photos(id) ON DELETE CASCADE,
            kind TEXT NOT NULL,
            params_hash TEXT NOT NULL,
            input_hash TEXT NOT NULL,
            path TEXT NOT NULL,
            file_hash TEXT NOT NULL,
            width INTEGER NOT NULL,
            height INTEGER NOT NULL,
            bytes INTEGER NOT NULL,
            run INTEGER REFERENCES runs(id) ON DELETE SET NULL,
            UNIQUE (photo, kind, path)
        );
        INSERT INTO renditions_v7 (id, photo, kind, params_hash, input_hash, path, file_hash, width, height, bytes, run)
            SELECT id, photo, kind, params_hash, input_hash, path, file_hash, width, height, bytes, run FROM renditions;
        DROP TABLE renditions;
        ALTER TABLE renditions_v7 RENAME TO renditions;
        CREATE INDEX renditions_lookup ON renditions(photo, kind, params_hash);

        CREATE TABLE steps_v7 (
            id INTEGER PRIMARY KEY,
            run INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
            photo TEXT REFERENCES photos(id) ON DELETE SET NULL,
            path TEXT NOT NULL,
            stage TEXT NOT NULL,
            params TEXT NOT NULL,
            input_hash TEXT,
            output_hash TEXT,
            ms REAL NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('done', 'skipped', 'failed')),
            error TEXT,
            at TEXT DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
        );
        INSERT INTO steps_v7 (id, run, photo, path, stage, params, input_hash, output_hash, ms, status, error, at)
            SELECT id, run, photo, path, stage, params, input_hash, output_hash, ms, status, error, at FROM steps;
        DROP TABLE steps;
        ALTER TABLE steps_v7 RENAME TO steps;
        CREATE INDEX steps_run ON steps(run);
        CREATE INDEX steps_photo ON steps(photo);
        """,
    ]

    /// The database's schema version (`PRAGMA user_version`; 0 for a new file).
    package static func version(_ database: Database) throws -> Int {
        try database.query("PRAGMA user_version") { $0.int(0) ?? 0 }.first ?? 0
    }

    /// Checks, without writing, that this album can read `database` as it is. A reader never migrates: an older
    /// schema is refused with what to do, which is a command that writes (`album verify` changes nothing else), or,
    /// when this user cannot write the catalogue (`canWrite` false), the same by a user who can.
    package static func check(_ database: Database, folder: String, canWrite: Bool = false) throws {
        let version = try Schema.version(database)
        if version > currentVersion {
            throw CatalogueError("catalogue \(folder) was written by a newer album (schema version \(version); this album reads up to \(currentVersion)). Upgrade album to use it.")
        }
        if version < currentVersion, canWrite {
            throw CatalogueError("catalogue \(folder) has an older schema (version \(version); this album reads \(currentVersion)), and a command that only reads never migrates it: run `album verify --catalogue \(folder)` once (or any command that writes, such as album run) to migrate it, then try again")
        }
        if version < currentVersion {
            throw CatalogueError("catalogue \(folder) has an older schema (version \(version); this album reads \(currentVersion)), and this user cannot write it to migrate it: a writer must open it once (album verify or album run, by a user who can write the folder)")
        }
    }

    /// Brings `database` to `currentVersion`, or refuses a catalogue written by a newer album.
    static func migrate(_ database: Database, folder: String) throws {
        let version = try Schema.version(database)
        if version > currentVersion {
            throw CatalogueError("catalogue \(folder) was written by a newer album (schema version \(version); this album reads up to \(currentVersion)). Upgrade album to use it.")
        }
        guard version < currentVersion else { return }
        try database.transaction {
            // Read again inside the write transaction: another process may have migrated since the read above.
            let version = try Schema.version(database)
            guard version < currentVersion else { return }
            if version < 3 {
                let paths = CataloguePaths(folder: folder)
                try database.execute("CREATE TEMP TABLE IF NOT EXISTS migration_folder (folder TEXT NOT NULL, parent TEXT)")
                try database.run("INSERT INTO temp.migration_folder VALUES (?, ?)", [.text(paths.folder), .text(paths.parent)])
            }
            for target in (version + 1)...currentVersion {
                try database.execute(migration(to: target))
            }
            try database.execute("PRAGMA user_version = \(currentVersion)")
        }
    }
}
