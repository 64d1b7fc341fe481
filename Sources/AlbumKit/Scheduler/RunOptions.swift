/// How `album run` runs a job, from its flags. Every default is written out here.
public struct RunOptions: Sendable {
    /// Photos in flight at once; nil to use the job's `workers`, then the machine's cores.
    public var workers: Int? = nil
    /// Redo every selected step, even when it is up to date.
    public var force: Bool = false
    /// Stop starting new photos after the first failed one (`--fail-fast`).
    public var failFast: Bool = false
    /// Stop starting new photos after this many failed ones (`--max-failures N`).
    public var maxFailures: Int? = nil
    /// The most whole-image memory in flight at once, in megapixels of 8-bit RGB (3 bytes each; `--memory-budget`):
    /// a rendering whose decoder or pipeline holds a whole image (a progressive JPEG's coefficients, an interlaced
    /// PNG, a rotation at full size: `LookRenderer.reservation`) waits until the others leave room. One photo larger
    /// than the budget still runs, alone. Baseline JPEGs stream and reserve nothing.
    public var pixelBudgetMegapixels: Int = 40
    /// A reservation above this many megapixels (12 MB) is a large decode, and only one large decode is in flight at
    /// a time, even where two would fit the budget: beside the largest whole-image buffer there are only small ones
    /// and streaming decodes. Two 4:2:0 progressive JPEGs of up to 4 MP still decode side by side. On the 316-photo
    /// benchmark corpus at 2 workers, peak RSS 194–201 MB without this rule (a 5120×2880 progressive JPEG at 4:4:4,
    /// 88 MB, beside a 2560×1600 one, 25 MB, both within 40 MP), 183–188 MB with it, at 0–5 % more wall time
    /// (Benchmarks/INVESTIGATION.md, section 16).
    public var largeDecodeMegapixels: Int = 4
    /// After a first SIGINT or SIGTERM, how long photos in flight may take to finish before they are abandoned.
    public var graceSeconds: Double = 10
    /// Run even when an import folder gave no photos where the catalogue knows some (`--allow-empty`): the
    /// folder is meant to be empty, not an unmounted share (`SourceCheck.requireFound`).
    public var allowEmpty: Bool = false
    /// Take damaged photos through the stages again (`--retry-damaged`): by default a photo whose pixels a run
    /// could not decode is left alone until its bytes change (`PhotoRecord.heldBack`); one that decodes now has
    /// its damage cleared.
    public var retryDamaged: Bool = false
    /// Paths read from a list (`album import -`) rather than named as roots: one that does not exist fails alone,
    /// as a file deleted between the listing and the import, instead of stopping the run (`SourceCheck`).
    public var listedPaths: Set<String> = []
    public init() {}
}
