import System
import Catalogue
import Stages

/// What the catalogue held when a run (or a plan) began, indexed for the decisions both make: the current photos
/// (`PhotoRecord.current`), the newest current photo per path (import's fast path), every rendition per photo
/// (the stages' up-to-date checks) and the current photos' aliases (docs/catalogue.md, "Aliases"). Loaded in three
/// queries, so a rerun where nothing changed asks the catalogue's serial owner nothing per photo (those round trips
/// were most of a no-op rerun's time: Benchmarks/INVESTIGATION.md).
///
/// Reading the snapshot instead of the live catalogue is sound because a photo's chain only ever looks up what an
/// earlier run wrote: the file import finds is its own photo's, and a stage looks up renditions of its own kind,
/// which no earlier stage of the same chain writes; two files with the same bytes never both run a chain.
package final class CatalogueSnapshot: Sendable {
    /// The current photos, newest added first (the catalogue's `allPhotos` order).
    package let currentPhotos: [PhotoRecord]
    package let photosByPath: [String: PhotoRecord]
    let renditionsByPhoto: [String: [Rendition]]
    /// The aliases of the current photos, by path (import's fast path for another name) and by photo (each
    /// export's paths), oldest first.
    package let aliasesByPath: [String: (alias: PhotoAlias, photo: PhotoRecord)]
    package let aliasesByPhoto: [String: [PhotoAlias]]
    /// The current photos by id, and by hash (what import's duplicate check finds, for the plan).
    package let photosByID: [String: PhotoRecord]
    package let photosByHash: [String: PhotoRecord]
    /// How many photos a newer version of their file replaces: kept until `album prune`, never in a run.
    package let supersededCount: Int
    /// The ids of those photos: import may find an earlier version's bytes under another name (a backup copy made
    /// before an edit), and such a photo still never joins the run.
    package let supersededIDs: Set<String>

    /// The current photos' second originals, by photo (import's fast path for a pair).
    package let secondsByPhoto: [String: [SecondOriginal]]
    /// The photos superseded only because their own path is another photo's second original (a pair regrouped,
    /// `PhotoRecord.pairedIDs`), by path: import finds such a file's bytes as that photo's again and makes it current
    /// (`pair:` changed back), which the plan counts as the run does.
    package let pairedAwayByPath: [String: PhotoRecord]

    package init(photos: [PhotoRecord], renditions: [Rendition], aliases: [PhotoAlias] = [], seconds: [SecondOriginal] = []) {
        currentPhotos = PhotoRecord.current(photos, aliases: aliases, seconds: seconds)
        supersededCount = photos.count - currentPhotos.count
        supersededIDs = Set(photos.map(\.id)).subtracting(currentPhotos.map(\.id))
        var byPath: [String: PhotoRecord] = [:]
        for photo in currentPhotos where byPath[photo.path].map({ $0.added < photo.added }) ?? true {
            byPath[photo.path] = photo
        }
        photosByPath = byPath
        renditionsByPhoto = Dictionary(grouping: renditions, by: \.photo)
        let current = Dictionary(currentPhotos.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        photosByID = current
        photosByHash = Dictionary(currentPhotos.map { ($0.hash, $0) }, uniquingKeysWith: { first, _ in first })
        let known = aliases.filter { current[$0.photo] != nil }
        aliasesByPhoto = Dictionary(grouping: known, by: \.photo)
        var aliasByPath: [String: (alias: PhotoAlias, photo: PhotoRecord)] = [:]
        for alias in known where aliasByPath[alias.path] == nil { aliasByPath[alias.path] = (alias, current[alias.photo]!) }
        aliasesByPath = aliasByPath
        secondsByPhoto = Dictionary(grouping: seconds.filter { current[$0.photo] != nil }, by: \.photo)
        let paired = PhotoRecord.pairedIDs(photos, seconds: seconds).subtracting(photos.compactMap(\.replaces))
        pairedAwayByPath = Dictionary(photos.filter { paired.contains($0.id) }.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Every photo, rendition and alias of `catalogue`; an empty snapshot when there is no catalogue yet.
    package convenience init(reading catalogue: CatalogueReader?) throws {
        guard let catalogue else {
            self.init(photos: [], renditions: [])
            return
        }
        self.init(photos: try catalogue.allPhotos(), renditions: try catalogue.renditions(kind: nil),
                  aliases: try catalogue.allAliases(), seconds: try catalogue.allSecondOriginals())
    }

    /// The paths `photo`'s exports are made for as its chain begins: its own, then each alias the run began with
    /// whose file is still there with its recorded stat, so it still holds the photo's bytes (an alias found during
    /// the run gets its export after the chain: the scheduler's and the plan's alias items). A name whose file
    /// changed is not exported for this photo: rewritten with other bytes it is another photo's name, which the
    /// import of that file decides; only touched, its stat is recorded and its export follows on the next run.
    /// One rule for the run and the plan.
    package func exportPaths(of photo: PhotoRecord) -> [String] {
        var paths = [photo.path]
        for alias in aliasesByPhoto[photo.id] ?? [] where !paths.contains(alias.path) {
            guard let status = try? FileStatus(alias.path, followingLinks: true), status.isRegular,
                  FileIdentity(status).isUnchanged(since: alias) else { continue }
            paths.append(alias.path)
        }
        return paths
    }

    /// Whether import will read the file at `path` (neither its photo's file nor a known alias, unchanged).
    package func isToImport(_ path: String, _ identity: FileIdentity) -> Bool {
        if let known = photosByPath[path], identity.isUnchanged(since: known) { return false }
        if let (alias, _) = aliasesByPath[path], identity.isUnchanged(since: alias) { return false }
        return true
    }

    /// `work` with the paths its exports are made for (`exportPaths(of:)`).
    package func withExportPaths(_ work: PhotoWork) -> PhotoWork {
        var work = work
        work.exportPaths = exportPaths(of: work.photo)
        return work
    }

    /// Phase 2's photos: the current photos that phase 1 did not settle (`PhotoRecord.settled` of every photo
    /// import handed on), newest added first.
    package func photosAfterImport(settled: Set<String>) -> [PhotoRecord] {
        currentPhotos.filter { !settled.contains($0.id) }
    }

    /// What phase 2 will take when import finds `files` and every one is imported: the current photos recorded
    /// for none of them. The run's first estimate of its size; the plan settles file by file instead.
    package func photosAfterImport(scanning files: [String]) -> [PhotoRecord] {
        photosAfterImport(settled: Set(files.compactMap { photosByPath[$0]?.id }))
    }

    /// The current photos whose own file this run's scan paired as another file's second original
    /// (`ImportScan.seconds`: a file imported alone before, or the other way round before `pair:` changed): import
    /// records that file as the pair's, so these photos are superseded from now on (`PhotoRecord.pairedIDs`) and
    /// join no stage. One rule for the run's and the plan's phase 2.
    package func pairedAway(_ seconds: [String: String]) -> Set<String> {
        guard !seconds.isEmpty else { return [] }
        let paths = Set(seconds.values)
        return Set(currentPhotos.filter { paths.contains($0.path) }.map(\.id))
    }

    /// The stage context's answers from this snapshot: the current photo recorded for a path, a photo's renditions.
    package func answering(_ context: StageContext) -> StageContext {
        var context = context
        context.knownPhoto = { [self] path in photosByPath[path] }
        context.recordedRenditions = { [self] photo in renditionsByPhoto[photo] ?? [] }
        context.knownAlias = { [self] path in aliasesByPath[path] }
        context.knownSecondOriginals = { [self] photo in secondsByPhoto[photo] ?? [] }
        return context
    }
}
