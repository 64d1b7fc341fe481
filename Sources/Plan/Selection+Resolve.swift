import Core
import Catalogue
import Stages

extension Selection {
    /// The selection with the facts its `missing` and `failed` keys need, from `catalogue` as it stands now; with no
    /// catalogue yet, no photo has a rendition and none failed.
    ///
    /// Resolve before a run begins (`failed: last-run` then means the run before it), and before listing:
    /// ```
    /// let selection = try Selection(missing: .thumbnail).resolved(in: catalogue)
    /// let photos = try catalogue.allPhotos().filter(selection.matches)
    /// ```
    /// A rendition counts for `missing` only while its file is intact (`RenditionFile.isIntact`), the rule the
    /// stages use to call it up to date.
    public func resolved(in catalogue: CatalogueReader?) throws -> Selection {
        guard needsCatalogue else { return self }
        var resolved = self
        var facts = SelectionFacts()
        if let catalogue {
            if let missing {
                let kind: Rendition.Kind = missing == .thumbnail ? .thumbnail : .export
                facts.having = Set(try catalogue.renditions(kind: kind).filter(RenditionFile.isIntact).map(\.photo))
            }
            if failed == .lastRun {
                facts.failed = try catalogue.photosFailedInLastJobRun()
            }
        }
        resolved.facts = facts
        return resolved
    }
}
