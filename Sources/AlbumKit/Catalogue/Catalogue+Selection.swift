import SQLite

extension Catalogue {
    /// `selection` with the facts its `missing` and `failed` keys need, as the catalogue stands now.
    ///
    /// Resolve before a run begins (`failed: last-run` then means the run before it), and before listing:
    /// ```
    /// let selection = try catalogue.resolve(Selection(missing: .thumbnail))
    /// let photos = try catalogue.allPhotos().filter(selection.matches)
    /// ```
    public func resolve(_ selection: Selection) throws -> Selection {
        guard selection.needsCatalogue else { return selection }
        var resolved = selection
        var facts = SelectionFacts()
        if let missing = selection.missing {
            let kind: Rendition.Kind = missing == .thumbnail ? .thumbnail : .export
            facts.having = Set(try renditions(kind: kind).filter(RenditionFile.isIntact).map(\.photo))
        }
        if selection.failed == .lastRun {
            facts.failed = try photosFailedInLastJobRun()
        }
        resolved.facts = facts
        return resolved
    }

    /// The newest run of a job (`album run` records its job file; `album caption` records none), if any.
    public func lastJobRun() throws -> Int64? {
        try database.query("SELECT MAX(id) AS run FROM runs WHERE job_path IS NOT NULL") { try $0["run"] as Int64? }.first ?? nil
    }

    /// Ids of photos with a failed step in the newest job run.
    func photosFailedInLastJobRun() throws -> Set<String> {
        guard let run = try lastJobRun() else { return [] }
        return Set(try database.query("SELECT DISTINCT photo FROM steps WHERE run = ? AND status = 'failed' AND photo IS NOT NULL",
                                      [.integer(run)]) { try $0["photo"] as String })
    }
}
