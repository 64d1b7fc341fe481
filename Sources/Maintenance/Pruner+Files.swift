import System
import Catalogue

extension Pruner {
    /// Deletes the file of a rendition whose row prune forgets (only checks, when `deleting` is false), by `album
    /// rm`'s rules: never a file a remaining row records, never one whose export tag names another catalogue
    /// (`otherOwner`), never an export outside the catalogue that no longer holds what album wrote, never a link.
    public func prune(fileOf rendition: Rendition, plan: PrunePlan, deleting: Bool) throws -> PrunedFile {
        if try remains(rendition.path, after: plan) { return .kept("another rendition row records it") }
        guard let info = try? FileStatus(rendition.path, followingLinks: false) else { return .gone }
        guard info.isRegular else { return .kept("not a regular file") }
        if let other = try Catalogue.otherOwner(of: rendition.path, in: catalogue) {
            return .kept("another catalogue exported it (id \(other))")
        }
        if !rendition.path.hasPrefix(catalogue.folder + "/") {
            guard let bytes = try? FileBytes(path: rendition.path), bytes.count == rendition.bytes,
                  try bytes.sha256() == rendition.fileHash else {
                // Kept and no longer recorded: the user's file now, not a leftover for `gc JOBFILE` to delete.
                if deleting { ExportTag.remove(from: rendition.path) }
                return .kept("it changed since album exported it")
            }
        }
        guard deleting else { return .deleted(bytes: info.size) }
        do {
            try FileSystem.remove(rendition.path)
        } catch {
            return error.notFound ? .gone : .failed(error.reason)
        }
        return .deleted(bytes: info.size)
    }
}
