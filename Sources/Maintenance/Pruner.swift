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
    ///
    /// Rows are read one at a time and each photo's own rows by index (issue 34): what it holds grows with what it
    /// forgets and with the versions it walks, not with the catalogue.
    public func plan(_ options: PruneOptions) throws -> PrunePlan {
        var plan = PrunePlan()
        var forgotten: [(PhotoRecord, PhotoState)] = []
        // Each chain from its head (a photo no version replaces), newest first, down its `replaces`; only the photos
        // a `replaces` reaches are remembered (a photo reached twice is decided once).
        var visited = Set<String>()
        try catalogue.forEachPhoto(replaced: false) { head in
            var chain = [head]
            var next = try head.replaces.flatMap { try catalogue.photo(id: $0) }
            while let photo = next, visited.insert(photo.id).inserted {
                chain.append(photo)
                next = try photo.replaces.flatMap { try catalogue.photo(id: $0) }
            }
            var aliases: [String: [PhotoAlias]] = [:]
            for photo in chain { aliases[photo.id] = try catalogue.aliases(photo: photo.id) }
            // A head whose own file now holds another photo's bytes, or is now another photo's second original, is
            // superseded though no version replaces it (`isSuperseded(_:)`, by index).
            Pruner.decide(chain, headSuperseded: try catalogue.isSuperseded(head), aliases: aliases, folder: catalogue.folder,
                          options: options, plan: &plan, forgetting: &forgotten)
            return true
        }
        // A superseded photo no chain reached (a loop of `replaces`, which album never writes) is still superseded.
        try catalogue.forEachPhoto(replaced: true) { photo in
            if !visited.contains(photo.id) { forgotten.append((photo, .superseded)) }
            return true
        }

        plan.forgotten = try forgotten.map { PrunePlan.Forgotten(photo: $0.0, state: $0.1, renditions: try catalogue.renditions(photo: $0.0.id)) }
        let current = try currentParameters()
        plan.unproven = current.unknown
        let gone = Set(forgotten.map(\.0.id))
        plan.gone = gone
        // Names whose file is gone, of photos that stay (a forgotten photo's aliases go with its row).
        try catalogue.forEachAlias { alias in
            if !gone.contains(alias.photo), alias.isMissing { plan.forgottenAliases.append(alias) }
            return true
        }
        // A pair's second original whose file is gone, of photos that stay and whose own file is there: the photo
        // keeps its rendered original. A photo whose own file is gone too (kept missing, or under a folder that is
        // not there: an unmounted share) keeps its second originals with it.
        try catalogue.forEachSecondOriginal { second in
            guard !gone.contains(second.photo), let photo = try catalogue.photo(id: second.photo), !PhotoRecord.isGone(photo.path) else { return true }
            if second.isMissing { plan.forgottenSeconds.append(second) }
            return true
        }
        try catalogue.forEachPhoto { photo in
            guard !gone.contains(photo.id) else { return true }
            let old = Pruner.oldRenditions(of: photo, try catalogue.renditions(photo: photo.id), current: current)
            plan.oldRenditions += old
            for item in old { plan.oldPaths[photo.id, default: []].insert(item.rendition.path) }
            return true
        }
        if let keep = options.history { plan.historyRows = try catalogue.thinnedHistoryCount(keeping: keep) }
        return plan
    }

    /// Whether a rendition row that stays after `plan` records the file at `path`: a row of a photo that stays,
    /// other than that photo's old renditions' (`plan.oldPaths`). Asked of the rows at `path` (`renditions_path`),
    /// before or after `apply`: the rows `apply` forgets are the ones this leaves out.
    public func remains(_ path: String, after plan: PrunePlan) throws -> Bool {
        try catalogue.renditions(path: path).contains { row in
            guard !plan.gone.contains(row.photo), !(plan.oldPaths[row.photo]?.contains(path) ?? false) else { return false }
            return try catalogue.photo(id: row.photo) != nil
        }
    }

    /// The renditions whose files prune deletes once their rows are gone: the forgotten photos' and the old ones,
    /// each path once, none that a remaining row records (`remains`).
    public func files(of plan: PrunePlan) throws -> [Rendition] {
        var seen = Set<String>()
        return try (plan.forgotten.flatMap(\.renditions) + plan.oldRenditions.map(\.rendition)).filter {
            try !remains($0.path, after: plan) && seen.insert($0.path).inserted
        }
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
