import Foundation
import System
import Catalogue

/// `album gc` as a service above the store: which files under the catalogue's derived areas, and under a job's
/// export roots, no row needs. It only reads (the rows, and the folders' listings; its set of needed paths is a temporary table); `GcCommand` deletes what it
/// finds, under the writer's lock.
public struct GarbageCollector {
    /// The catalogue whose rows say which files are needed: the writer, whose connection keeps the set of them
    /// (`Catalogue.withTemporarySet`).
    public let catalogue: Catalogue
    package var folder: String { catalogue.folder }

    public init(_ catalogue: Catalogue) {
        self.catalogue = catalogue
    }

    /// The folders inside the catalogue that hold only files album derived: the only places `gc` looks.
    public static let derivedAreas = ["thumbnails", "filtered", "originals"]

    /// Files under the derived areas that no row needs, and album's unfinished temporary files there.
    ///
    /// A file is needed when a rendition row (of any kind) or a photo row (its copy, or even its original's path)
    /// names it, compared by path relative to the catalogue folder; a row whose path lies outside the folder is
    /// also matched on its last three components (`thumbnails/ab/name`), so a catalogue moved with `mv` keeps its
    /// files. Only regular files are garbage: symbolic links are neither followed nor removed.
    public func garbage() throws -> [GarbageFile] {
        // Every recorded path goes into a set SQLite keeps (`withTemporarySet`), read one row at a time: the
        // process holds no set of every path, whatever the catalogue's size (issue 34).
        try catalogue.withTemporarySet { needed in
            func note(_ path: String) throws {
                if path.hasPrefix(folder + "/") { try needed.insert(String(path.dropFirst(folder.count + 1))) }
                let parts = path.split(separator: "/")
                if parts.count >= 3, GarbageCollector.derivedAreas.contains(String(parts[parts.count - 3])) {
                    try needed.insert(parts.suffix(3).joined(separator: "/"))
                }
            }
            try catalogue.forEachRecordedPath { path, copy in
                try note(path)
                if let copy { try needed.insert(copy) }
            }
            var found: [GarbageFile] = []
            for area in GarbageCollector.derivedAreas {
                try collectGarbage(in: area, needed: needed, into: &found)
            }
            return found.sorted { $0.relativePath < $1.relativePath }
        }
    }

    private func collectGarbage(in relative: String, needed: TemporaryTextSet, into found: inout [GarbageFile]) throws {
        guard (try? FileStatus(folder + "/" + relative, followingLinks: false))?.isDirectory == true else { return }
        let listing = Directory.entries(of: folder + "/" + relative)
        guard listing.failure == nil else { return }
        for name in listing.names {
            let path = relative + "/" + name
            guard let info = try? FileStatus(folder + "/" + path, followingLinks: false) else { continue }
            if info.isDirectory {
                try collectGarbage(in: path, needed: needed, into: &found)
            } else if info.isRegular, try !needed.contains(path) {
                let reason: GarbageFile.Reason = GarbageCollector.isTemporary(name) ? .temporary : .unreferenced
                found.append(GarbageFile(relativePath: path, bytes: info.size, reason: reason))
            }
        }
    }

    /// Whether `name` is one of `AtomicFile`'s temporary names: `.NAME.album-XXXXXX` (mkstemp's six characters).
    static func isTemporary(_ name: String) -> Bool {
        name.range(of: #"^\..+\.album-[A-Za-z0-9]{6}$"#, options: .regularExpression) != nil
    }
}
