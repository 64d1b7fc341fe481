import Foundation
import System
import Catalogue
import Stages

/// What the catalogue held when a run (or a plan) began, looked up one photo or one path at a time for the decisions
/// both make: whether a photo is current (`PhotoRecord.current`, row by row: `CatalogueReader.isCurrent`), the newest
/// current photo per path (import's fast path), every rendition per photo (the stages' up-to-date checks) and the
/// current photos' aliases and second originals (docs/catalogue.md, "Aliases", "Pairs"). Nothing is loaded whole:
/// each lookup is an indexed query prepared once on a connection of its own (`CatalogueReader.lookupConnection`), so
/// memory holds only the photos in flight, whatever the catalogue's size, and a rerun where nothing changed asks the
/// catalogue's serial owner nothing per photo (those round trips were most of a no-op rerun's time:
/// Benchmarks/INVESTIGATION.md, sections 5 and 23).
///
/// The connection holds one read transaction from the snapshot's making to its end (WAL: the catalogue as it was
/// then, whatever the run writes meanwhile), so the decisions are those a whole-table copy made at the start would
/// give. (A distributed chunk's database keeps a rollback journal, where a held read would stop its writer: there
/// the lookups read the file as it is; a chunk's photo's chain only ever looks up what an earlier run wrote: the
/// file import finds is its own photo's, and a stage looks up renditions of its own kind, which no earlier stage of
/// the same chain writes; two files with the same bytes never both run a chain.)
package final class CatalogueSnapshot: @unchecked Sendable {
    /// The lookups' connection, nil without a catalogue (or once closed): used under `lock` only, one caller at a
    /// time (the workers ask from their threads), which is what makes the class sendable.
    private var reader: CatalogueReader?
    private let lock = NSLock()
    /// How many photos a newer version of their file replaces: kept until `album prune`, never in a run.
    package let supersededCount: Int

    /// The catalogue as `catalogue` sees it now, on a connection of its own; an empty snapshot without a catalogue.
    package init(reading catalogue: CatalogueReader?) throws {
        guard let catalogue else {
            reader = nil
            supersededCount = 0
            return
        }
        let reader = try catalogue.lookupConnection()
        var superseded = 0
        do {
            try reader.forEachLookedUpPhoto { found in
                if try !reader.isCurrent(found) { superseded += 1 }
                return true
            }
        } catch {
            reader.close()
            throw error
        }
        supersededCount = superseded
        self.reader = reader
    }

    deinit {
        close()
    }

    /// Ends the read transaction and closes the lookups' connection; later lookups answer as without a catalogue.
    /// A run closes it as it ends, before the catalogue's writer closes and checkpoints the log.
    package func close() {
        lock.lock()
        defer { lock.unlock() }
        reader?.close()
        reader = nil
    }

    /// Runs `body` on the lookups' connection, or answers `empty` without a catalogue.
    private func ask<T>(_ empty: T, _ body: (CatalogueReader) throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        guard let reader else { return empty }
        return try body(reader)
    }

    /// Every current photo, newest added first (the catalogue's `allPhotos` order), one at a time, none kept.
    /// `body` must not ask this snapshot anything (it holds the lookups' connection).
    package func forEachCurrentPhoto(_ body: (PhotoRecord) throws -> Void) throws {
        try ask(()) { reader in
            try reader.forEachLookedUpPhoto { found in
                if try reader.isCurrent(found) { try body(found.photo) }
                return true
            }
        }
    }

    /// The newest current photo recorded at `path`.
    package func photo(atPath path: String) throws -> PhotoRecord? {
        try ask(nil) { reader in try reader.lookedUpPhotos(path: path).first { try reader.isCurrent($0) }?.photo }
    }

    /// The current photo with this id.
    package func photo(id: String) throws -> PhotoRecord? {
        try ask(nil) { reader in try reader.lookedUpPhoto(id: id).flatMap { try reader.isCurrent($0) ? $0.photo : nil } }
    }

    /// The current photo with these bytes (what import's duplicate check finds, for the plan).
    package func photo(hash: String) throws -> PhotoRecord? {
        try ask(nil) { reader in try reader.lookedUpPhoto(hash: hash).flatMap { try reader.isCurrent($0) ? $0.photo : nil } }
    }

    /// Whether the photo with this id is in the catalogue and superseded (import may find an earlier version's bytes
    /// under another name, a backup copy made before an edit, and such a photo still never joins the run).
    package func isSuperseded(id: String) throws -> Bool {
        try ask(false) { reader in try reader.lookedUpPhoto(id: id).map { try !reader.isCurrent($0) } ?? false }
    }

    /// The first alias recorded at `path` whose photo is current, with that photo (import's fast path for another name).
    package func alias(atPath path: String) throws -> (alias: PhotoAlias, photo: PhotoRecord)? {
        try ask(nil) { reader in
            for alias in try reader.aliases(atPath: path) {
                if let found = try reader.lookedUpPhoto(id: alias.photo), try reader.isCurrent(found) { return (alias, found.photo) }
            }
            return nil
        }
    }

    /// The aliases of `photo` when it is current (each export's paths), oldest first.
    package func aliases(ofPhoto photo: String) throws -> [PhotoAlias] {
        try ask([]) { reader in
            let aliases = try reader.aliases(photo: photo)
            guard !aliases.isEmpty, let found = try reader.lookedUpPhoto(id: photo), try reader.isCurrent(found) else { return [] }
            return aliases
        }
    }

    /// The second originals of `photo` when it is current (import's fast path for a pair).
    package func secondOriginals(ofPhoto photo: String) throws -> [SecondOriginal] {
        try ask([]) { reader in
            let seconds = try reader.secondOriginals(photo: photo)
            guard !seconds.isEmpty, let found = try reader.lookedUpPhoto(id: photo), try reader.isCurrent(found) else { return [] }
            return seconds
        }
    }

    /// Every rendition recorded for `photo`, oldest first.
    package func renditions(ofPhoto photo: String) throws -> [Rendition] {
        try ask([]) { reader in try reader.renditions(photo: photo) }
    }

    /// The photo at `path` superseded only because its path is another photo's second original (a pair regrouped,
    /// `PhotoRecord.pairedIDs`): import finds such a file's bytes as that photo's again and makes it current
    /// (`pair:` changed back), which the plan counts as the run does.
    package func pairedAway(atPath path: String) throws -> PhotoRecord? {
        try ask(nil) { reader in try reader.lookedUpPhotos(path: path).first { $0.paired && !$0.replaced }?.photo }
    }

    /// The current photos at the paths of `aliases` whose file now holds that alias's photo's bytes: superseded
    /// from now on (`PhotoRecord.displacedIDs` over the current photos, asked only at those paths).
    package func displaced(by aliases: [PhotoAlias]) throws -> Set<String> {
        guard !aliases.isEmpty else { return [] }
        return try ask([]) { reader in
            var displaced = Set<String>()
            for path in Set(aliases.map(\.path)) {
                let current = try reader.lookedUpPhotos(path: path).filter { try reader.isCurrent($0) }.map(\.photo)
                displaced.formUnion(PhotoRecord.displacedIDs(current, aliases: aliases.filter { $0.path == path }))
            }
            return displaced
        }
    }

    /// How many current photos lie under the folder `prefix` ends with (`SourceCheck.requireFound`).
    package func currentCount(under prefix: String) throws -> Int {
        var count = 0
        try forEachCurrentPhoto { if $0.path.hasPrefix(prefix) { count += 1 } }
        return count
    }

    /// The paths `photo`'s exports are made for as its chain begins: its own, then each alias the run began with
    /// whose file is still there with its recorded stat, so it still holds the photo's bytes (an alias found during
    /// the run gets its export after the chain: the scheduler's and the plan's alias items). A name whose file
    /// changed is not exported for this photo: rewritten with other bytes it is another photo's name, which the
    /// import of that file decides; only touched, its stat is recorded and its export follows on the next run.
    /// One rule for the run and the plan.
    package func exportPaths(of photo: PhotoRecord) throws -> [String] {
        var paths = [photo.path]
        for alias in try aliases(ofPhoto: photo.id) where !paths.contains(alias.path) {
            guard let status = try? FileStatus(alias.path, followingLinks: true), status.isRegular,
                  FileIdentity(status).isUnchanged(since: alias) else { continue }
            paths.append(alias.path)
        }
        return paths
    }

    /// Whether import will read the file at `path` (neither its photo's file nor a known alias, unchanged).
    package func isToImport(_ path: String, _ identity: FileIdentity) throws -> Bool {
        if let known = try photo(atPath: path), identity.isUnchanged(since: known) { return false }
        if let (alias, _) = try alias(atPath: path), identity.isUnchanged(since: alias) { return false }
        return true
    }

    /// `work` with the paths its exports are made for (`exportPaths(of:)`).
    package func withExportPaths(_ work: PhotoWork) throws -> PhotoWork {
        var work = work
        work.exportPaths = try exportPaths(of: work.photo)
        return work
    }

    /// Phase 2's photos: the current photos that phase 1 did not settle (`PhotoRecord.settled` of every photo
    /// import handed on), newest added first.
    package func photosAfterImport(settled: Set<String>) throws -> [PhotoRecord] {
        var photos: [PhotoRecord] = []
        try forEachCurrentPhoto { if !settled.contains($0.id) { photos.append($0) } }
        return photos
    }

    /// What phase 2 will take when import finds `files` and every one is imported: the current photos recorded
    /// for none of them. The run's first estimate of its size; the plan settles file by file instead.
    package func photosAfterImport(scanning files: [String]) throws -> [PhotoRecord] {
        var photos: [PhotoRecord] = []
        try forEachAfterImport(scanning: files) { photos.append($0) }
        return photos
    }

    /// How many photos `photosAfterImport(scanning:)` gives that `isCounted` takes, none kept.
    package func countAfterImport(scanning files: [String], where isCounted: (PhotoRecord) -> Bool = { _ in true }) throws -> Int {
        var count = 0
        try forEachAfterImport(scanning: files) { if isCounted($0) { count += 1 } }
        return count
    }

    /// `photosAfterImport(scanning:)` one at a time. A scanned file settles the newest current photo at its path
    /// (`photo(atPath:)`), the first one the newest-first walk meets there.
    private func forEachAfterImport(scanning files: [String], _ body: (PhotoRecord) throws -> Void) throws {
        var unmet = Set(files)
        try forEachCurrentPhoto { photo in
            if unmet.remove(photo.path) == nil { try body(photo) }
        }
    }

    /// The current photos whose own file this run's scan paired as another file's second original
    /// (`ImportScan.seconds`: a file imported alone before, or the other way round before `pair:` changed): import
    /// records that file as the pair's, so these photos are superseded from now on (`PhotoRecord.pairedIDs`) and
    /// join no stage. One rule for the run's and the plan's phase 2.
    package func pairedAway(_ seconds: [String: String]) throws -> Set<String> {
        guard !seconds.isEmpty else { return [] }
        return try ask([]) { reader in
            var ids = Set<String>()
            for path in Set(seconds.values) {
                for found in try reader.lookedUpPhotos(path: path) where try reader.isCurrent(found) { ids.insert(found.photo.id) }
            }
            return ids
        }
    }

    /// The stage context's answers from this snapshot: the current photo recorded for a path, a photo's renditions.
    package func answering(_ context: StageContext) -> StageContext {
        var context = context
        context.knownPhoto = { [self] path in try photo(atPath: path) }
        context.recordedRenditions = { [self] photo in try renditions(ofPhoto: photo) }
        context.knownAlias = { [self] path in try alias(atPath: path) }
        context.knownSecondOriginals = { [self] photo in try secondOriginals(ofPhoto: photo) }
        return context
    }
}
