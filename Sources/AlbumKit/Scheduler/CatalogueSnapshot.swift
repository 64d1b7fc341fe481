/// What the catalogue held when a run began, indexed for the up-to-date checks: the latest photo per path and
/// every rendition per photo. Loaded in two queries, so a rerun where nothing changed asks the catalogue's serial
/// owner nothing per photo (those round trips were most of a no-op rerun's time: Benchmarks/INVESTIGATION.md).
///
/// Reading the snapshot instead of the live catalogue is sound because a photo's chain only ever looks up what an
/// earlier run wrote: the file import finds is its own photo's, and a stage looks up renditions of its own kind,
/// which no earlier stage of the same chain writes; two files with the same bytes never both run a chain.
final class CatalogueSnapshot: Sendable {
    let photosByPath: [String: PhotoRecord]
    let renditionsByPhoto: [String: [Rendition]]

    init(photos: [PhotoRecord], renditions: [Rendition]) {
        var byPath: [String: PhotoRecord] = [:]
        for photo in photos where byPath[photo.path].map({ $0.added < photo.added }) ?? true {
            byPath[photo.path] = photo
        }
        photosByPath = byPath
        renditionsByPhoto = Dictionary(grouping: renditions, by: \.photo)
    }
}
