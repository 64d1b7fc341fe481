/// Where a problem `album verify` found goes in its output: the catalogue's order, whatever order the files were
/// checked in: renditions by row id first, then photos newest added first (`allPhotos`' order).
struct ProblemPlace: Comparable {
    /// The rendition's row id, or nil for a photo's problem.
    var rendition: Int64?
    /// The photo's `added` and row id (`CatalogueReader.newestFirstPlace`).
    var added = ""
    var rowid: Int64 = 0

    static func < (a: ProblemPlace, b: ProblemPlace) -> Bool {
        switch (a.rendition, b.rendition) {
        case let (x?, y?): return x < y
        case (.some, nil): return true
        case (nil, .some): return false
        case (nil, nil): return (a.added, a.rowid) > (b.added, b.rowid)
        }
    }
}
