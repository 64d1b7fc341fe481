import System
import Catalogue

extension GarbageCollector {
    /// album's own leftovers under a job's export roots: its unfinished temporary files (`.NAME.album-XXXXXX`, left by
    /// a process kill or a power cut between the write and the rename), and exports tagged by this catalogue that no
    /// rendition row records (a run stopped between the rename and the commit that records them). Paths are
    /// absolute. A root that is a symbolic link is followed (its real folder holds the exports); links under it are
    /// neither followed nor removed. A recorded export is known by its file's identity (device and inode), not by
    /// how its path is spelled, so a root reached another way never makes a recorded export look unrecorded. A
    /// temporary file another catalogue tagged is the caller's to keep (`otherOwner`), and an untagged file that is
    /// not a temporary one is never garbage here.
    public func exportGarbage(roots: [String]) throws -> [GarbageFile] {
        guard !roots.isEmpty else { return [] }
        let identity = try catalogue.identity()
        // The recorded exports' identities ("device:inode") go into a set SQLite keeps, one row at a time (issue 34).
        return try catalogue.withTemporarySet { recorded in
            try catalogue.forEachRendition(kind: .export) { rendition in
                if let info = try? FileStatus(rendition.path, followingLinks: true) { try recorded.insert(GarbageCollector.identityKey(info)) }
                return true
            }
            var found: [GarbageFile] = []
            var seen = Set<String>()
            for root in roots where seen.insert(root).inserted {
                guard (try? FileStatus(root, followingLinks: true))?.isDirectory == true else { continue }
                try collectExportGarbage(in: root, recorded: recorded, identity: identity, into: &found)
            }
            return found.sorted { $0.relativePath < $1.relativePath }
        }
    }

    /// A file as the kernel knows it, whatever path reaches it: its device and inode.
    private static func identityKey(_ info: FileStatus) -> String { "\(info.device):\(info.inode)" }

    private func collectExportGarbage(in folder: String, recorded: TemporaryTextSet, identity: String,
                                      into found: inout [GarbageFile]) throws {
        let listing = Directory.entries(of: folder)
        guard listing.failure == nil else { return }
        for name in listing.names {
            let path = folder + "/" + name
            guard let info = try? FileStatus(path, followingLinks: false) else { continue }
            if info.isDirectory {
                try collectExportGarbage(in: path, recorded: recorded, identity: identity, into: &found)
            } else if info.isRegular {
                if GarbageCollector.isTemporary(name) {
                    found.append(GarbageFile(relativePath: path, bytes: info.size, reason: .temporary))
                } else if try !recorded.contains(GarbageCollector.identityKey(info)), ExportTag.of(path)?.catalogue == identity {
                    found.append(GarbageFile(relativePath: path, bytes: info.size, reason: .unreferenced))
                }
            }
        }
    }
}
