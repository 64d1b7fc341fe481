extension Job {
    /// The job with its own `select:` and every stage's resolved against `catalogue` (`Catalogue.resolve(_:)`).
    /// `album run` calls this before it begins the run, so `failed: last-run` names the run before this one.
    public func resolvingSelections(in catalogue: Catalogue) throws -> Job {
        var job = self
        job.select = try select.map(catalogue.resolve)
        job.stages = try stages.map { stage in
            var stage = stage
            stage.select = try stage.select.map(catalogue.resolve)
            return stage
        }
        return job
    }
}
