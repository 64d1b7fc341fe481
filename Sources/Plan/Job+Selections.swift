import Catalogue
import JobFile

extension Job {
    /// The job with its own `select:` and every stage's resolved against `catalogue` (`Selection.resolved(in:)`);
    /// with no catalogue yet, no photo has a rendition and none failed.
    /// A job run calls this before it begins the run, so `failed: last-run` names the run before this one.
    public func resolvingSelections(in catalogue: CatalogueReader?) throws -> Job {
        var job = self
        job.select = try select.map { try $0.resolved(in: catalogue) }
        job.stages = try stages.map { stage in
            var stage = stage
            stage.select = try stage.select.map { try $0.resolved(in: catalogue) }
            return stage
        }
        return job
    }

    /// A warning for each `path:` glob in the job's selections that matches none of `paths` (the files import finds
    /// and the catalogue's photos): such a `select:` leaves every photo out, and says so (`Selection.unmatchedPathWarning`).
    /// `album plan`, `run --dry-run` and `run` print them on stderr before the photos.
    public func unmatchedPathWarnings(among paths: [String]) -> [String] {
        ([select] + stages.map { $0.select }).compactMap { $0?.unmatchedPathWarning(among: paths) }
    }

    /// Whether any of the job's selections has a `path:` glob: only then are the catalogue's paths read for
    /// `unmatchedPathWarnings`.
    public var selectsByPath: Bool {
        ([select] + stages.map { $0.select }).contains { $0?.path != nil }
    }
}
