import Foundation
import Synchronization
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
    /// Runs a lookup on the catalogue's writer instead of a connection of the snapshot's own (a distributed chunk's
    /// view, which no second connection may open): the run passes its serial owner's `sync`.
    package typealias Through = @Sendable (_ body: (CatalogueReader) throws -> Void) throws -> Void

    /// The lookups' connections, one per caller at a time (a run's workers ask at once, each on its own), all opened
    /// together when the snapshot is made; guarded by `pool`, which is what makes the class sendable. Empty without
    /// a catalogue, or once closed.
    private var idle: [CatalogueReader] = []
    private var open: [CatalogueReader] = []
    private let pool = NSCondition()
    private let through: Through?
    /// The photos that are not current, read once as the snapshot is made (`CatalogueReader.notCurrent`): every
    /// other photo row is current.
    private let notCurrent: NotCurrent
    /// The last paths `photo(atPath:)` answered, with their answers: the scheduler asks once when it takes a file
    /// (`decodeNeed`) and import asks again at once; a few entries, whatever the catalogue's size.
    private let recentPaths = Mutex(RecentPaths())
    /// Whether the catalogue held any alias when the snapshot began: without one, no photo's exports have a path
    /// besides its own, and `aliases(ofPhoto:)` answers without a query (nil: not known, asked each time).
    private let hasAliases: Bool?
    /// How many photos a newer version of their file replaces: kept until `album prune`, never in a run.
    package var supersededCount: Int { notCurrent.superseded.count }

    /// The catalogue as `catalogue` sees it now, on `connections` connections of its own (one per thread that asks
    /// at once); an empty snapshot without a catalogue. A chunk's view is asked `through` its writer instead (then
    /// this must be called on the writer's queue).
    package init(reading catalogue: CatalogueReader?, connections: Int = 1, through: Through? = nil) throws {
        guard let catalogue else {
            notCurrent = NotCurrent()
            self.through = nil
            hasAliases = false
            return
        }
        notCurrent = try catalogue.notCurrent()
        if let through, try catalogue.isChunkView {
            // A chunk's view is read as it is now, not as it was when the run began: asked each time.
            self.through = through
            hasAliases = nil
            return
        }
        self.through = nil
        if try catalogue.isChunkView {
            // Read by one caller on the writer's own connection (none of album's chunk commands plans a view).
            throw CatalogueError("a chunk's catalogue view is looked up only through its run's writer")
        }
        do {
            // Opened one after another with nothing written between (the caller holds the writer), so every one
            // begins its read at the same point of the log.
            for _ in 0..<max(1, connections) { open.append(try catalogue.lookupConnection()) }
            // Asked in the first connection's read transaction, the snapshot every lookup sees (WAL); a catalogue
            // with a rollback journal is read as it is, and asked each time.
            hasAliases = try open[0].isWAL ? open[0].hasAliases() : nil
        } catch {
            for reader in open { reader.close() }
            throw error
        }
        idle = open
    }

    deinit {
        close()
    }

    /// Ends the read transactions and closes the lookups' connections; later lookups answer as without a catalogue.
    /// A run closes it as it ends, before the catalogue's writer closes and checkpoints the log.
    package func close() {
        pool.lock()
        defer { pool.unlock() }
        // Callers are done by now (the run's workers have stopped); one still asking gets its connection closed
        // when it gives it back.
        for reader in idle { reader.close() }
        idle = []
        open = []
        pool.broadcast()
    }

    /// Runs `body` on a lookups' connection of its own, or answers `empty` without a catalogue.
    private func ask<T>(_ empty: T, _ body: (CatalogueReader) throws -> T) throws -> T {
        if let through {
            var result = empty
            try through { result = try body($0) }
            return result
        }
        pool.lock()
        while idle.isEmpty, !open.isEmpty { pool.wait() }
        guard let reader = idle.popLast() else {
            pool.unlock()
            return empty
        }
        pool.unlock()
        defer {
            pool.lock()
            if open.contains(where: { $0 === reader }) { idle.append(reader) } else { reader.close() }
            pool.signal()
            pool.unlock()
        }
        return try body(reader)
    }

    private func isCurrent(_ id: String) -> Bool {
        !notCurrent.superseded.contains(id)
    }

    /// Every current photo, newest added first (the catalogue's `allPhotos` order), one at a time, none kept.
    /// `body` must not ask this snapshot anything (it holds a lookups' connection).
    package func forEachCurrentPhoto(_ body: (PhotoRecord) throws -> Void) throws {
        try ask(()) { reader in
            try reader.forEachPhotoNewestFirst { photo in
                if isCurrent(photo.id) { try body(photo) }
                return true
            }
        }
    }

    /// Every current photo's size, in no order (a walk of one column and the id).
    package func forEachCurrentSize(_ body: (Int) throws -> Void) throws {
        try ask(()) { reader in
            try reader.forEachPhotoKey { id, _, bytes in if isCurrent(id) { try body(bytes) } }
        }
    }

    /// The newest current photo recorded at `path`.
    package func photo(atPath path: String) throws -> PhotoRecord? {
        // Each answer is held in a box of its own, so that the lock is held to compare paths and to retain or swap
        // a box, never to copy or free a record (the workers ask at once, twice a photo).
        let key = path.hashValue
        if let known = recentPaths.withLock({ $0.answer(path, key: key) }) { return known.photo }
        let photo = try ask(nil) { reader in try reader.photos(atPath: path).first { isCurrent($0.id) } }
        let answer = RecentPaths.Answer(path: path, key: key, photo: photo)
        _ = recentPaths.withLock { $0.add(answer) }  // the oldest answer, released after the lock
        return photo
    }

    /// The newest current photo recorded at `path`, its probe columns alone (`CatalogueReader.probedPhotos`): a
    /// rerun's first look at a file (`Scheduler.decodeNeed` asks, and keeps the answer in its worker's `KnownPhoto`
    /// for the file's `Scheduler.probe`). Nil when there is none, and when a row is malformed (the whole row's read
    /// says how: `photo(atPath:)`).
    package func probedPhoto(atPath path: String) throws -> PhotoRecord? {
        try ask(nil) { reader in try reader.probedPhotos(atPath: path)?.first { isCurrent($0.id) } }
    }

    /// Every rendition recorded for `photo`, oldest first, their probe columns alone (`CatalogueReader.probedRenditions`);
    /// nil when a row is malformed.
    package func probedRenditions(ofPhoto photo: String) throws -> [Rendition]? {
        try ask(nil) { reader in try reader.probedRenditions(photo: photo) }
    }

    /// The current photo with this id.
    package func photo(id: String) throws -> PhotoRecord? {
        guard isCurrent(id) else { return nil }
        return try ask(nil) { reader in try reader.photo(id: id) }
    }

    /// The current photo with these bytes (what import's duplicate check finds, for the plan).
    package func photo(hash: String) throws -> PhotoRecord? {
        try ask(nil) { reader in try reader.photo(hash: hash).flatMap { isCurrent($0.id) ? $0 : nil } }
    }

    /// Whether the photo with this id is in the catalogue and superseded (import may find an earlier version's bytes
    /// under another name, a backup copy made before an edit, and such a photo still never joins the run).
    package func isSuperseded(id: String) -> Bool {
        !isCurrent(id)
    }

    /// The first alias recorded at `path` whose photo is current, with that photo (import's fast path for another name).
    package func alias(atPath path: String) throws -> (alias: PhotoAlias, photo: PhotoRecord)? {
        try ask(nil) { reader in
            for alias in try reader.aliases(atPath: path) where isCurrent(alias.photo) {
                if let photo = try reader.photo(id: alias.photo) { return (alias, photo) }
            }
            return nil
        }
    }

    /// The aliases of `photo` when it is current (each export's paths), oldest first; asked of the catalogue only
    /// when it held an alias as the snapshot began (`hasAliases`).
    package func aliases(ofPhoto photo: String) throws -> [PhotoAlias] {
        guard isCurrent(photo), hasAliases != false else { return [] }
        return try ask([]) { reader in try reader.aliases(photo: photo) }
    }

    /// The second originals of `photo` when it is current (import's fast path for a pair).
    package func secondOriginals(ofPhoto photo: String) throws -> [SecondOriginal] {
        guard isCurrent(photo) else { return [] }
        return try ask([]) { reader in try reader.secondOriginals(photo: photo) }
    }

    /// Every rendition recorded for `photo`, oldest first.
    package func renditions(ofPhoto photo: String) throws -> [Rendition] {
        try ask([]) { reader in try reader.renditions(photo: photo) }
    }

    /// The photo at `path` superseded only because its path is another photo's second original (a pair regrouped,
    /// `PhotoRecord.pairedIDs`): import finds such a file's bytes as that photo's again and makes it current
    /// (`pair:` changed back), which the plan counts as the run does.
    package func pairedAway(atPath path: String) throws -> PhotoRecord? {
        guard !notCurrent.pairedAway.isEmpty else { return nil }
        return try ask(nil) { reader in try reader.photos(atPath: path).first { notCurrent.pairedAway.contains($0.id) } }
    }

    /// The current photos at the paths of `aliases` whose file now holds that alias's photo's bytes: superseded
    /// from now on (`PhotoRecord.displacedIDs` over the current photos, asked only at those paths).
    package func displaced(by aliases: [PhotoAlias]) throws -> Set<String> {
        guard !aliases.isEmpty else { return [] }
        return try ask([]) { reader in
            var displaced = Set<String>()
            for path in Set(aliases.map(\.path)) {
                let current = try reader.photos(atPath: path).filter { isCurrent($0.id) }
                displaced.formUnion(PhotoRecord.displacedIDs(current, aliases: aliases.filter { $0.path == path }))
            }
            return displaced
        }
    }

    /// How many current photos lie under the folder `prefix` ends with (`SourceCheck.requireFound`).
    package func currentCount(under prefix: String) throws -> Int {
        var count = 0
        try ask(()) { reader in
            try reader.forEachPhotoKey { id, path, _ in if path.hasPrefix(prefix), isCurrent(id) { count += 1 } }
        }
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
        let known = try ask(nil) { reader in try reader.recordedFiles(atPath: path).first { isCurrent($0.id) }?.file }
        if let known, identity.isUnchanged(since: known) { return false }
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
    /// import handed on), newest added first; of a distributed chunk's share only (`share`), looked up by id.
    /// The walk reads each photo's id alone; only the photos phase 2 takes are read whole.
    package func photosAfterImport(settled: SettledPhotos, share: Set<String>? = nil) throws -> [PhotoRecord] {
        var photos: [PhotoRecord] = []
        try ask(()) { reader in
            if let share {
                try reader.photos(ids: Array(share)) { if isCurrent($0.id), !settled.contains($0.id) { photos.append($0) } }
                return
            }
            var ids: [String] = []
            try reader.forEachPhotoID { id in if isCurrent(id), !settled.contains(id) { ids.append(id) } }
            for id in ids { if let photo = try reader.photo(id: id) { photos.append(photo) } }
        }
        return photos
    }

    /// What phase 2 will take when import finds `files` and every one is imported: the current photos recorded
    /// for none of them. The distributed planner's chunks; the run counts them instead (`countAfterImport`).
    package func photosAfterImport(scanning files: [String]) throws -> [PhotoRecord] {
        var photos: [PhotoRecord] = []
        var unmet = Set(files)
        try forEachCurrentPhoto { photo in
            if unmet.remove(photo.path) == nil { photos.append(photo) }
        }
        return photos
    }

    /// How many current photos the snapshot holds, once `countAfterImport` has counted them (nil before, and for a
    /// share): a run whose phase 1 settled that many of them has no phase 2 to look for (`Scheduler.runAll`).
    package private(set) var currentCount: Int? {
        get { pool.lock(); defer { pool.unlock() }; return counted }
        set { pool.lock(); defer { pool.unlock() }; counted = newValue }
    }
    private var counted: Int?

    /// How many photos `photosAfterImport(scanning:)` gives (of `share` only, when given): the run's first
    /// estimate of its size. A scanned file settles the newest current photo at its path, so this is the current
    /// photos less the scanned paths that have one, counted in one walk of ids and paths with no photo kept.
    /// `files` is the scan's, sorted by path (else a set of them is made).
    package func countAfterImport(scanning files: ScannedPaths, share: Set<String>? = nil) throws -> Int {
        if let share {
            // A share's photo counts unless a scanned file is at its path and it is the newest current photo there
            // (the one that file settles, in the share or not).
            var count = 0
            let scanned = Set(files)
            try ask(()) { reader in
                var counted: [PhotoRecord] = []
                try reader.photos(ids: Array(share)) { if isCurrent($0.id) { counted.append($0) } }
                for photo in counted {
                    if scanned.contains(photo.path), try reader.photos(atPath: photo.path).first(where: { isCurrent($0.id) })?.id == photo.id { continue }
                    count += 1
                }
            }
            return count
        }
        let sorted = files.isSorted
        let unsorted = sorted ? [] : Set(files)
        // The walk in two parts (one through a chunk's writer), each a range of rowids on a thread and a connection of
        // its own (ParallelMap: Run's threads), before the run's workers start: a 10^5 catalogue's walk is serial
        // time. Each part keeps the indices and paths it met; they are joined after.
        let parts = through == nil ? 2 : 1
        let range = try ask(nil) { reader in try reader.photoRowids() }
        let found = Mutex<[(current: Int, met: [Int], metUnsorted: Set<String>)]>([])
        let failure = Mutex<(any Error)?>(nil)
        ParallelMap.forEach(count: range == nil ? 0 : parts, workers: parts) { [self] part in
            guard let range else { return }
            let width = (range.upperBound - range.lowerBound) / Int64(parts) + 1
            let low = range.lowerBound + width * Int64(part), high = min(range.upperBound, low + width - 1)
            guard low <= high else { return }  // fewer rows than parts
            var current = 0, next = 0, met: [Int] = [], metUnsorted = Set<String>()
            do {
                try ask(()) { reader in
                    try reader.forEachPhotoKey(rowids: low...high) { id, path, _ in
                        guard isCurrent(id) else { return }
                        current += 1
                        if sorted {
                            // Photos were mostly recorded in the scan's order: the next file is tried first.
                            if let index = files.sortedIndex(of: path, near: next) {
                                met.append(index)
                                next = index + 1
                            }
                        } else if unsorted.contains(path) {
                            metUnsorted.insert(path)
                        }
                    }
                }
                found.withLock { $0.append((current, met, metUnsorted)) }
            } catch {
                failure.withLock { $0 = error }
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
        let walked = found.withLock { $0 }
        let current = walked.reduce(0) { $0 + $1.current }
        // A path two photos share is met once.
        let met = sorted ? Set(walked.flatMap(\.met)).count : walked.reduce(into: Set<String>()) { $0.formUnion($1.metUnsorted) }.count
        currentCount = current
        return current - met
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
                for photo in try reader.photos(atPath: path) where isCurrent(photo.id) { ids.insert(photo.id) }
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

/// The last paths `CatalogueSnapshot.photo(atPath:)` answered, with their answers, in a ring of a few entries.
private struct RecentPaths {
    final class Answer: Sendable {
        let path: String
        /// `path`'s hash: a miss compares 16 integers, not 16 paths that differ in their last bytes.
        let key: Int
        let photo: PhotoRecord?

        init(path: String, key: Int, photo: PhotoRecord?) {
            self.path = path
            self.key = key
            self.photo = photo
        }
    }

    private static let count = 16
    private var entries: [Answer] = []
    private var next = 0

    /// The answer kept for `path`, if any.
    /// - Parameter key: `path.hashValue`, made outside the lock.
    func answer(_ path: String, key: Int) -> Answer? {
        entries.first { $0.key == key && $0.path == path }
    }

    /// Keeps `answer` in place of the oldest, which it returns (entries are overwritten in place, never shifted).
    mutating func add(_ answer: Answer) -> Answer? {
        guard entries.count == RecentPaths.count else {
            entries.append(answer)
            return nil
        }
        let oldest = entries[next]
        entries[next] = answer
        next = (next + 1) % RecentPaths.count
        return oldest
    }
}
