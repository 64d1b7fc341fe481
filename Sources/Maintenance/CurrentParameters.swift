import Core

/// The parameters the catalogue's jobs apply now: the stages (`runs.stages`) of each job's latest finished run,
/// and of any run of it started since. A rendition made with other parameters is one no job would produce again.
public struct CurrentParameters: Sendable {
    /// The parameters' hashes each stage applies, over every job.
    public var hashes: [StageName: Set<String>] = [:]
    /// The look each filter parameters' hash gives (the hash is made from the recipe, so it names one look).
    public var looks: [String: String] = [:]
    /// The filter parameters' hashes applied by a stage that keeps its full-size image (`AppliedStage.keepsFullSize`):
    /// a filtered image whose hash is not here is kept by no current stage, though its look may be current.
    public var keptFullSize: Set<String> = []
    /// The jobs whose current runs do not say which stages they applied (recorded before schema version 5, when
    /// their counts name a rendering stage): "NAME (run N)".
    public var unknown: [String] = []

    /// Whether a rendition of `stage` made with `hash` is one some job applies now: true or false when the runs say,
    /// nil when some job's runs do not say (keep what cannot be proved old).
    public func applies(_ stage: StageName, hash: String) -> Bool? {
        if hashes[stage]?.contains(hash) == true { return true }
        return unknown.isEmpty ? false : nil
    }
}
