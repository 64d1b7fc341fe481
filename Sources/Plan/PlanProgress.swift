import Catalogue
import Stages

/// What a plan has established so far across the entries import finds, as the run's scheduler holds it in its
/// state: the photos settled, the photos still to import that a later copy may match, where a photo moved, the
/// other names found for known bytes (their exports are planned after every chain, as the run makes them), and
/// the size groups that make a new file worth hashing (`Planner.isCandidate`).
package struct PlanProgress {
    /// The photos import has handed on (`PhotoRecord.settle`).
    package var settled = SettledPhotos()
    /// Photos still to import whose hash the plan read, by hash: a later file with those bytes is another name of it.
    var newPhotosByHash: [String: PhotoRecord] = [:]
    /// Photos this plan found at a new path (`ImportMatch.moved`), by id, as the run will have recorded them.
    package var moved: [String: PhotoRecord] = [:]
    /// The other names found for known bytes, each with its photo, in the order found.
    package var aliasesFound: [(alias: PhotoAlias, photo: PhotoRecord)] = []
    /// How many files still to import have each size.
    var sizesToImport: [Int: Int] = [:]
    /// The sizes of the catalogue's current photos.
    var knownSizes = Set<Int>()
    /// Each photo's work as its planned chain leaves it, kept for the photos an alias may copy (a size in
    /// `sizesToImport`): its alias's export is planned from it.
    var finalWork: [String: PhotoWork] = [:]
}
