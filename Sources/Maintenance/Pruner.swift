import System
import Core
import Catalogue

/// `album prune` as a service above the store (docs/catalogue.md "Pruning"): it decides from what a reader gives,
/// writes through the writer's own methods in one transaction, and deletes files by `album rm`'s rules. A dry run
/// gives it a `CatalogueReader`, so it cannot write.
public struct Pruner {
    /// The catalogue it reads (a `Catalogue`, the writer, for a prune that applies its plan).
    public let catalogue: CatalogueReader

    public init(_ catalogue: CatalogueReader) {
        self.catalogue = catalogue
    }

    /// What `album prune` would forget and keep, read from the catalogue and the files, writing nothing
    /// (docs/catalogue.md "Pruning"): missing photos and superseded versions, each version chain from its newest
    /// photo down; renditions of the photos that stay which no current look or parameter set would produce; and,
    /// with `history`, old skipped step rows.
    public func plan(_ options: PruneOptions) throws -> PrunePlan {
        var plan = PrunePlan()
        var forgotten: [(PhotoRecord, PhotoState)] = []
        let photos = try catalogue.allPhotos()
        let byID = Dictionary(photos.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let replaced = Set(photos.compactMap(\.replaces))
        let allAliases = try catalogue.allAliases()
        let aliases = Dictionary(grouping: allAliases, by: \.photo)
        // Photos whose own file now holds another photo's bytes: superseded, though no version replaces them.
        // And photos whose own file is now another photo's second original (a pair made since, docs "Pairs").
        let allSeconds = try catalogue.allSecondOriginals()
        let displaced = PhotoRecord.displacedIDs(photos, aliases: allAliases).union(PhotoRecord.pairedIDs(photos, seconds: allSeconds))
        var visited = Set<String>()
        for head in photos where !replaced.contains(head.id) {
            var chain: [PhotoRecord] = []
            var next: PhotoRecord? = head
            while let photo = next, visited.insert(photo.id).inserted {
                chain.append(photo)
                next = photo.replaces.flatMap { byID[$0] }
            }
            Pruner.decide(chain, headSuperseded: displaced.contains(head.id), aliases: aliases, folder: catalogue.folder, options: options,
                          plan: &plan, forgetting: &forgotten)
        }
        // A superseded photo no chain reached (a loop of `replaces`, which album never writes) is still superseded.
        forgotten += photos.filter { !visited.contains($0.id) }.map { ($0, .superseded) }

        let renditions = Dictionary(grouping: try catalogue.renditions(kind: nil), by: \.photo)
        plan.forgotten = forgotten.map { PrunePlan.Forgotten(photo: $0.0, state: $0.1, renditions: renditions[$0.0.id] ?? []) }
        let current = try currentParameters()
        plan.unproven = current.unknown
        let gone = Set(forgotten.map(\.0.id))
        // Names whose file is gone, of photos that stay (a forgotten photo's aliases go with its row).
        plan.forgottenAliases = allAliases.filter { !gone.contains($0.photo) && $0.isMissing }
        // A pair's second original whose file is gone, of photos that stay and whose own file is there: the photo
        // keeps its rendered original. A photo whose own file is gone too (kept missing, or under a folder that is
        // not there: an unmounted share) keeps its second originals with it.
        plan.forgottenSeconds = allSeconds.filter { second in
            guard !gone.contains(second.photo), let photo = byID[second.photo], !PhotoRecord.isGone(photo.path) else { return false }
            return second.isMissing
        }
        for photo in photos where !gone.contains(photo.id) {
            let old = Pruner.oldRenditions(of: photo, renditions[photo.id] ?? [], current: current)
            plan.oldRenditions += old
            let oldPaths = Set(old.map(\.rendition.path))
            plan.remainingPaths.formUnion((renditions[photo.id] ?? []).map(\.path).filter { !oldPaths.contains($0) })
        }
        if let keep = options.history { plan.historyRows = try catalogue.thinnedHistoryCount(keeping: keep) }
        return plan
    }

    /// Writes `plan` in one transaction of `writer` (the catalogue it was made from): the forgotten photos' rows
    /// (their renditions' and aliases' rows go with them; a kept version's `replaces` and their steps' `photo` become
    /// NULL, as the schema says), the old renditions' rows, the `missing_kept` marks, and the thinned history. Files
    /// are the caller's, after this.
    public static func apply(_ plan: PrunePlan, options: PruneOptions, to writer: Catalogue) throws {
        let now = Timestamp.now()
        try writer.transaction {
            for forgotten in plan.forgotten {
                try writer.forgetRow(photo: forgotten.photo.id)
            }
            try writer.forgetAliases(plan.forgottenAliases)
            try writer.forgetSecondOriginals(plan.forgottenSeconds)
            for old in plan.oldRenditions {
                try writer.forgetRendition(photo: old.rendition.photo, kind: old.rendition.kind, path: old.rendition.path)
            }
            for id in plan.markKept {
                try writer.setMissingKept(photo: id, at: now)
            }
            for id in plan.foundAgain {
                try writer.setMissingKept(photo: id, at: nil)
            }
            if let keep = options.history { try writer.thinHistory(keeping: keep) }
        }
    }
}

extension Pruner {
    /// Decides one version chain, newest first: a missing photo at its head is forgotten (and the next version is
    /// then the head), kept with `--keep-missing` or an earlier mark, kept when the catalogue holds its copy, or
    /// kept when its folder is unreachable; the superseded versions below the head are kept up to `keepVersions`.
    /// A head that is itself superseded (`headSuperseded`: its file holds another photo's bytes now) is decided
    /// as one of those versions.
    private static func decide(_ chain: [PhotoRecord], headSuperseded: Bool, aliases: [String: [PhotoAlias]], folder: String,
                               options: PruneOptions, plan: inout PrunePlan, forgetting forgotten: inout [(PhotoRecord, PhotoState)]) {
        var head = headSuperseded ? -1 : 0
        while head >= 0, head < chain.count {
            let photo = chain[head]
            guard photo.condition(isSuperseded: false, aliases: aliases[photo.id] ?? []).state == .missing else {
                if photo.missingKept != nil { plan.foundAgain.append(photo.id) }
                break
            }
            if photo.missingKept != nil || options.keepMissing {
                plan.keptMissing.append(photo.id)
                if photo.missingKept == nil { plan.markKept.append(photo.id) }
                break
            }
            if photo.storedPath != nil, FileSystem.exists(photo.originalPath(in: folder)) {
                plan.keptCopies.append(photo.id)  // mode: copy kept the original here; forgetting it would lose it (gc)
                break
            }
            if !options.forgetUnreachable, var unreachable = UnreachableFolder.of(original: photo.path) {
                if let index = plan.unreachable.firstIndex(where: { $0.folder == unreachable.folder && $0.why == unreachable.why }) {
                    plan.unreachable[index].photos.append(photo.id)
                } else {
                    unreachable.photos = [photo.id]
                    plan.unreachable.append(unreachable)
                }
                break
            }
            forgotten.append((photo, .missing))
            head += 1
        }
        for (rank, version) in chain.dropFirst(head + 1).enumerated() {
            if version.storedPath != nil, FileSystem.exists(version.originalPath(in: folder)) {
                // mode: copy kept this version's bytes, the only copy of them once the original was edited in place;
                // forgetting the row would let gc delete it.
                plan.keptCopiedVersions.append(version.id)
            } else if version.heldByAlias(aliases[version.id] ?? []) {
                plan.keptHeld.append(version.id)  // its bytes are still on disk under another name (a backup copy)
            } else if rank < options.keepVersions {
                plan.keptVersions += 1
            } else {
                forgotten.append((version, .superseded))
            }
        }
    }
}
