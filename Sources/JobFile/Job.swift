import Core
import Stages

/// A job file, read and checked: every value typed, every default filled in, every path absolute.
public struct Job: Sendable {
    /// The job file's format version; 1 is the only one.
    public var version: Int = 1
    /// Recorded with every run (provenance) and shown in reports. Default: the file's name without extension.
    public var name: String
    /// The catalogue folder, absolute: the job's `catalogue:`, else, as read, `album` beside the job file (where
    /// earlier versions put it). `run`, `plan` and `watch` then set the one `CatalogueLocation` finds.
    public var catalogue: String
    /// True when the job file has no `catalogue:` and `catalogue` is the folder beside it: then `ALBUM_CATALOGUE`,
    /// the config files and `./album` come first (`CatalogueLocation`), that folder only when it holds a catalogue.
    public var catalogueIsDefault: Bool = false
    /// Photos in flight at once; nil for `auto` (the machine's cores).
    public var workers: Int? = nil
    /// Which catalogue photos the stages after import work on; nil for all.
    public var select: Selection? = nil
    /// The `import` stage, when the job has one (it always runs first): the registered `PhotoSource`.
    public var importStage: (any PhotoSource)? = nil
    /// The stages after import, in the order each photo goes through them.
    public var stages: [any PhotoStage] = []
    /// Where to write the run's HTML report after every run (`report:`), absolute; nil for none.
    public var report: String? = nil
    /// The job file's path and SHA-256, for provenance; nil for a job made on the command line (`album import`).
    public var path: String?
    public var hash: String?

    public init(version: Int = 1, name: String, catalogue: String, catalogueIsDefault: Bool = false,
                workers: Int? = nil, select: Selection? = nil, importStage: (any PhotoSource)? = nil,
                stages: [any PhotoStage] = [], report: String? = nil, path: String? = nil, hash: String? = nil) {
        self.version = version
        self.name = name
        self.catalogue = catalogue
        self.catalogueIsDefault = catalogueIsDefault
        self.workers = workers
        self.select = select
        self.importStage = importStage
        self.stages = stages
        self.report = report
        self.path = path
        self.hash = hash
    }
}
