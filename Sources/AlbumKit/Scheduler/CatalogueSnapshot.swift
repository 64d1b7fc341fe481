/// What the catalogue held when a run (or a plan) began, indexed for the decisions both make: the current photos
/// (`PhotoRecord.current`), the newest current photo per path (import's fast path) and every rendition per photo
/// (the stages' up-to-date checks). Loaded in two queries, so a rerun where nothing changed asks the catalogue's
/// serial owner nothing per photo (those round trips were most of a no-op rerun's time: Benchmarks/INVESTIGATION.md).
///
/// Reading the snapshot instead of the live catalogue is sound because a photo's chain only ever looks up what an
/// earlier run wrote: the file import finds is its own photo's, and a stage looks up renditions of its own kind,
/// which no earlier stage of the same chain writes; two files with the same bytes never both run a chain.
final class CatalogueSnapshot: Sendable {
    /// The current photos, newest added first (the catalogue's `allPhotos` order).
    let currentPhotos: [PhotoRecord]
    let photosByPath: [String: PhotoRecord]
    let renditionsByPhoto: [String: [Rendition]]
    /// How many photos a newer version of their file replaces: kept until `album prune`, never in a run.
    let supersededCount: Int

    init(photos: [PhotoRecord], renditions: [Rendition]) {
        currentPhotos = PhotoRecord.current(photos)
        supersededCount = photos.count - currentPhotos.count
        var byPath: [String: PhotoRecord] = [:]
        for photo in currentPhotos where byPath[photo.path].map({ $0.added < photo.added }) ?? true {
            byPath[photo.path] = photo
        }
        photosByPath = byPath
        renditionsByPhoto = Dictionary(grouping: renditions, by: \.photo)
    }

    /// Every photo and rendition of `catalogue`; an empty snapshot when there is no catalogue yet.
    convenience init(reading catalogue: Catalogue?) throws {
        guard let catalogue else {
            self.init(photos: [], renditions: [])
            return
        }
        self.init(photos: try catalogue.allPhotos(), renditions: try catalogue.renditions(kind: nil))
    }

    /// Phase 2's photos: the current photos that phase 1 did not settle (`PhotoRecord.settled` of every photo
    /// import handed on), newest added first.
    func photosAfterImport(settled: Set<String>) -> [PhotoRecord] {
        currentPhotos.filter { !settled.contains($0.id) }
    }

    /// What phase 2 will take when import finds `files` and every one is imported: the current photos recorded
    /// for none of them. The run's first estimate of its size; the plan settles file by file instead.
    func photosAfterImport(scanning files: [String]) -> [PhotoRecord] {
        photosAfterImport(settled: Set(files.compactMap { photosByPath[$0]?.id }))
    }

    /// The stage context's answers from this snapshot: the current photo recorded for a path, a photo's renditions.
    func answering(_ context: StageContext) -> StageContext {
        var context = context
        context.knownPhoto = { [self] path in photosByPath[path] }
        context.recordedRenditions = { [self] photo in renditionsByPhoto[photo] ?? [] }
        return context
    }
}
