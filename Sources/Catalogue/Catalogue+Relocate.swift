import SQLite
import Core

extension CatalogueReader {
    /// The recorded paths that lie under `old` (the folder itself or anything in it), each with the path it takes
    /// under `new`: photos' originals first (each with its XMP sidecar), then their aliases, their second originals, then renditions (exports recorded absolute; and a catalogue's own files,
    /// when it was moved while it still stored them absolute, before schema version 3 made them relative).
    /// Both prefixes are absolute and normalised (`Paths.absolute`).
    public func relocations(from old: String, to new: String) throws -> [RelocatedPath] {
        func moved(_ path: String) -> String? {
            if path == old { return new }
            guard path.hasPrefix(old == "/" ? "/" : old + "/") else { return nil }
            return (new == "/" ? "" : new) + "/" + path.dropFirst(old == "/" ? 1 : old.count + 1)
        }
        var found: [RelocatedPath] = []
        for photo in try fetchAll(PhotoRecord.self, "ORDER BY added, rowid") {
            if let to = moved(photo.path) { found.append(RelocatedPath(photo: photo.id, kind: nil, from: photo.path, to: to)) }
            if let sidecar = photo.sidecar, let to = moved(sidecar) {
                found.append(RelocatedPath(photo: photo.id, kind: nil, from: sidecar, to: to, sidecar: true))
            }
        }
        for alias in try allAliases() {
            if let to = moved(alias.path) { found.append(RelocatedPath(photo: alias.photo, kind: nil, from: alias.path, to: to, alias: true)) }
        }
        for second in try allSecondOriginals() {
            if let to = moved(second.path) { found.append(RelocatedPath(photo: second.photo, kind: nil, from: second.path, to: to, second: true)) }
        }
        for rendition in try renditions(kind: nil) {
            if let to = moved(rendition.path) {
                found.append(RelocatedPath(photo: rendition.photo, kind: rendition.kind, from: rendition.path, to: to))
            }
        }
        return found
    }
}

extension Catalogue {
    /// Rewrites `moves` (from `relocations`) in one transaction, recorded as a run of job "relocate" (no job file)
    /// whose counts say how many paths it rewrote, as `album caption` records its change.
    /// - Returns: the run's id.
    public func relocate(_ moves: [RelocatedPath], software: Software) throws -> Int64 {
        try transaction {
            let run = try beginRun(job: "relocate", jobPath: nil, jobHash: nil, started: Timestamp.now(), software: software)
            for move in moves {
                if let kind = move.kind {
                    try database.run("UPDATE renditions SET path = ? WHERE photo = ? AND kind = ? AND path = ?",
                                     [.text(paths.stored(move.to)), .text(move.photo), .text(kind.rawValue), .text(paths.stored(move.from))])
                } else if move.second {
                    try database.run("UPDATE second_originals SET path = ? WHERE photo = ? AND path = ?",
                                     [.text(paths.stored(move.to)), .text(move.photo), .text(paths.stored(move.from))])
                } else if move.sidecar {
                    try database.run("UPDATE photos SET sidecar = ? WHERE id = ?", [.text(paths.stored(move.to)), .text(move.photo)])
                } else if move.alias {
                    try database.run("UPDATE aliases SET path = ? WHERE photo = ? AND path = ?",
                                     [.text(paths.stored(move.to)), .text(move.photo), .text(paths.stored(move.from))])
                } else {
                    try database.run("UPDATE photos SET path = ? WHERE id = ?", [.text(paths.stored(move.to)), .text(move.photo)])
                }
            }
            let counts = JSONValue.object([("relocate", .object([("done", .int(moves.count)), ("skipped", .int(0)), ("failed", .int(0))]))])
            try finishRun(run, finished: Timestamp.now(), status: "ok", counts: counts.text)
            return run
        }
    }
}
