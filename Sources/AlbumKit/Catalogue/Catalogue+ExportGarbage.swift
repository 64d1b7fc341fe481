import System

extension Catalogue {
    /// album's own leftovers under a job's export roots: its unfinished temporary files (`.NAME.album-XXXXXX`, left by
    /// a process kill or a power cut between the write and the rename), and exports tagged by this catalogue that no
    /// rendition row records (a run stopped between the rename and the commit that records them). Paths are
    /// absolute. Symbolic links are neither followed nor removed; a temporary file another catalogue tagged is the
    /// caller's to keep (`otherOwner`), and an untagged file that is not a temporary one is never garbage here.
    public func exportGarbage(roots: [String]) throws -> [GarbageFile] {
        let recorded = Set(try renditions(kind: .export).map(\.path))
        let identity = try identity()
        var found: [GarbageFile] = []
        var seen = Set<String>()
        for root in roots where seen.insert(root).inserted {
            collectExportGarbage(in: root, recorded: recorded, identity: identity, into: &found)
        }
        return found.sorted { $0.relativePath < $1.relativePath }
    }

    private func collectExportGarbage(in folder: String, recorded: Set<String>, identity: String, into found: inout [GarbageFile]) {
        guard (try? FileStatus(folder, followingLinks: false))?.isDirectory == true else { return }
        let listing = Directory.entries(of: folder)
        guard listing.failure == nil else { return }
        for name in listing.names {
            let path = folder + "/" + name
            guard let info = try? FileStatus(path, followingLinks: false) else { continue }
            if info.isDirectory {
                collectExportGarbage(in: path, recorded: recorded, identity: identity, into: &found)
            } else if info.isRegular {
                if Catalogue.isTemporary(name) {
                    found.append(GarbageFile(relativePath: path, bytes: info.size, reason: .temporary))
                } else if !recorded.contains(path), ExportTag.of(path)?.catalogue == identity {
                    found.append(GarbageFile(relativePath: path, bytes: info.size, reason: .unreferenced))
                }
            }
        }
    }
}
