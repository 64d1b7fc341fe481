import Foundation
import System
import Core
import Catalogue
import Media
import Stages
import JobFile
import Run

extension Planner {
    /// Plans one entry import finds, as `ImportStage.importFile` will treat it: never opened, failing, unchanged
    /// (its photo goes on), a known name of a photo unchanged (the photo goes on), bytes the catalogue already has
    /// (`planKnownBytes`), or to import (the new photo it would record goes on, and settles the version it replaces).
    func planImport(of path: String, sidecar: String?, entry: ImportEntry, job: Job, snapshot: CatalogueSnapshot,
                    progress: inout PlanProgress, in plan: inout Plan, context: StageContext) throws {
        switch entry {
        case .skipped(let reason):
            note(&plan, path: path, stage: .import, .leftOut, "(not imported: \(reason))")
        case .failed(let reason):
            note(&plan, path: path, stage: .import, .toDo, "(it fails: \(reason))")
        case .file(let identity):
            // A photo a regrouped pair superseded is found again by its bytes, as the run finds it (`pairedAway(atPath:)`).
            let known = try snapshot.photo(atPath: path) ?? snapshot.pairedAway(atPath: path)
            if var known, identity.isUnchanged(since: known) {
                let secondChanged = try Planner.secondChanged(plan.scan.seconds[path], of: known, snapshot: snapshot)
                // A sidecar changed, added or removed: the facts are read again (no pixels), and the stages after
                // import select by them, as the run's will.
                if !force, !secondChanged, let source = job.importStage, let change = source.sidecarChange(of: known, sidecar: sidecar) {
                    note(&plan, path: path, stage: .import, .toDo, "(\(change): facts updated)")
                    if let (updated, _) = try? source.refreshedFacts(of: known, sidecar: sidecar, catalogueFolder: job.catalogue) {
                        known = updated
                    }
                } else {
                    note(&plan, path: path, stage: .import, force || secondChanged ? .toDo : .upToDate)
                }
                guard PhotoRecord.settle(known, in: &progress.settled) else { return }
                try followKeeping(snapshot.withExportPaths(PhotoWork(photo: known, recipe: try Recipe(canonicalJSON: known.filterRecipe))),
                                  beforeImport: false, foundByImport: true, of: job, progress: &progress, in: &plan, context: context)
            } else if let (alias, found) = try snapshot.alias(atPath: path), identity.isUnchanged(since: alias) {
                note(&plan, path: path, stage: .import, force ? .toDo : .upToDate)
                var photo = progress.moved[found.id] ?? found
                if !FileSystem.exists(photo.path) {  // the photo's own file is gone: this name becomes its path
                    photo.path = path
                    progress.moved[photo.id] = photo
                }
                guard PhotoRecord.settle(photo, in: &progress.settled) else { return }
                try followKeeping(snapshot.withExportPaths(PhotoWork(photo: photo, recipe: try Recipe(canonicalJSON: photo.filterRecipe))),
                                  beforeImport: false, foundByImport: true, of: job, progress: &progress, in: &plan, context: context)
            } else {
                let hash = Planner.isCandidate(identity, progress) ? try? FileBytes.sha256(ofFileAt: path) : nil
                if let hash, let holder = try Planner.holder(of: hash, snapshot: snapshot, progress) {
                    try planKnownBytes(at: path, identity: identity, holder: holder, job: job, snapshot: snapshot,
                                       progress: &progress, in: &plan, context: context)
                    return
                }
                note(&plan, path: path, stage: .import, .toDo)
                var photo = Planner.photoToImport(at: path, identity: identity, replacing: known)
                // What its sidecar says is known now, as the run will know it (a sidecar's facts win over the file's).
                if let source = job.importStage { photo = source.sidecarFacts(sidecar, onto: photo) }
                if let hash {
                    photo.hash = hash
                    progress.newPhotosByHash[hash] = photo
                }
                if known != nil { plan.states[.superseded, default: 0] += 1 }
                guard PhotoRecord.settle(photo, in: &progress.settled) else { return }
                try followKeeping(PhotoWork(photo: photo, recipe: .original), beforeImport: true, foundByImport: true, of: job,
                                  progress: &progress, in: &plan, context: context)
            }
        }
    }

    /// Whether import records a new version of `known`'s second original at `path` (a pair's other file the scan
    /// found, `ImportScan.seconds`), as `ImportStage.importSecond` decides: none recorded there, or one whose file
    /// has another stat and, read only then, other bytes.
    static func secondChanged(_ path: String?, of known: PhotoRecord, snapshot: CatalogueSnapshot) throws -> Bool {
        guard let path else { return false }
        guard let recorded = try snapshot.secondOriginals(ofPhoto: known.id).first(where: { $0.path == path }) else { return true }
        guard let status = try? FileStatus(path, followingLinks: true) else { return true }
        if FileIdentity(status).isUnchanged(since: recorded) { return false }
        return status.size != recorded.bytes || (try? FileBytes.sha256(ofFileAt: path)) != recorded.hash
    }

    /// The photo import would record for a new or changed file, as far as its name, its stat and the catalogue
    /// say: a new id, added now, the original look, the caption of the version it replaces. The plan assumes new
    /// bytes unless it read them (`isCandidate`: a size another photo or file has): a file whose size changed and
    /// that copies no other is counted as to do.
    static func photoToImport(at path: String, identity: FileIdentity, replacing previous: PhotoRecord?) -> PhotoRecord {
        PhotoRecord(id: UUID().uuidString.lowercased(), hash: "", path: path, bytes: identity.bytes,
                    mtimeNanoseconds: identity.mtimeNanoseconds, inode: identity.inode, width: 0, height: 0, format: "",
                    taken: nil, added: Timestamp.now(), caption: previous?.caption, filter: "none",
                    filterRecipe: Recipe.original.canonical.text, camera: nil, orientation: 1, hasGPS: false,
                    replaces: previous?.id, storedPath: nil)
    }

    /// Whether `selection` takes `photo`. For a photo still to import (`beforeImport`) the keys only its header
    /// and its sidecar answer (`taken`, `caption`, `camera`, `format`, `rating`, `label`, `keywords`) are unknown: nil when the others match and one of them is set.
    package static func matches(_ selection: Selection?, _ photo: PhotoRecord, beforeImport: Bool) -> Bool? {
        guard let selection else { return true }
        guard beforeImport else { return selection.matches(photo) }
        var known = selection
        known.taken = nil
        known.caption = nil
        known.camera = nil
        known.format = nil
        // XMP's facts are known when the sidecar gave them (`PhotoSource.sidecarFacts`): it wins over the file's.
        if photo.rating == nil { known.rating = nil }
        if photo.label == nil { known.label = nil }
        if photo.keywords.isEmpty { known.keywords = nil }
        guard known.matches(photo) else { return false }
        return known == selection ? true : nil
    }
}
