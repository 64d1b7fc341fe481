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
    /// PNG, a rotation at full size: `LookRenderer.reservation`) waits until the others leave room, and a new file
    /// that would not fit is put aside while the worker takes the next one (`WorkQueue`). One photo larger than the
    /// budget still runs, alone. Baseline JPEGs stream and reserve nothing. 32 MP (96 MB): a 16 MP progressive JPEG
    /// at 4:4:4 (96 MB; the benchmark corpus' heaviest, 4096×4096, holds 101 MB) decodes beside streaming decodes
    /// only, and two 4:2:0 progressive JPEGs of up to 16 MP (48 MB each) still decode side by side. On the 316-photo
    /// benchmark corpus at 2 workers, peak RSS 194–201 MB at 40 MP, where a 5120×2880 progressive JPEG at 4:4:4
    /// (88 MB) decoded beside a 2560×1600 one (25 MB); Benchmarks/INVESTIGATION.md, section 16, has the figures at 32.
    public var pixelBudgetMegapixels: Int = 32
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
    /// When set, phase 2 takes only these catalogue photos (by id): a distributed chunk's share, which the planner
    /// assigned (docs/distributed.md); empty for a batch of `album watch`, whose files alone go through the stages
    /// (phase 1). nil: every current photo phase 1 did not settle.
    public var photosAfterImport: Set<String>? = nil
    public init() {}
}
