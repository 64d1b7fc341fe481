extension Job {
    /// The job with its own `select:` and every stage's resolved against `catalogue` (`Catalogue.resolve(_:)`);
    /// with no catalogue yet, no photo has a rendition and none failed.
    /// `album run` calls this before it begins the run, so `failed: last-run` names the run before this one.
    public func resolvingSelections(in catalogue: Catalogue?) throws -> Job {
        func resolve(_ selection: Selection) throws -> Selection {
            if let catalogue { return try catalogue.resolve(selection) }
            var resolved = selection
            if resolved.needsCatalogue { resolved.facts = SelectionFacts() }
            return resolved
        }
        var job = self
        job.select = try select.map(resolve)
        job.stages = try stages.map { stage in
            var stage = stage
            stage.select = try stage.select.map(resolve)
            return stage
        }
        return job
    }
}
