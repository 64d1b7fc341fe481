import Stages

extension CatalogueSnapshot {
    /// `countAfterImport(scanning:share:)` of a scan's compact list (`ImportScan.files`). For now it makes every path's
    /// `String` for the count, and frees them after it.
    package func countAfterImport(scanning files: ScannedPaths, share: Set<String>? = nil) throws -> Int {
        try countAfterImport(scanning: Array(files), share: share)
    }
}
