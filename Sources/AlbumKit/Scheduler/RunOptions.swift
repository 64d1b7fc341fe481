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
    /// The most decoded pixels in flight at once, in megapixels (`--memory-budget`): a rendering that holds its
    /// whole image in memory (a rotation at full size; a progressive JPEG, whose decoder keeps every coefficient,
    /// counted twice) waits until the others leave room. One photo larger than the budget still runs, alone.
    /// 100 MP (about 300 MB of 8-bit RGB) lets two workers decode two 24 MP progressive JPEGs at once, while a folder
    /// of 50 MP photos goes one at a time. (At 40 MP, two 17 MP progressive JPEGs queued behind each other and two
    /// workers were only 1.5× as fast as one on 79 real JPEGs; at 100 MP, 1.9×.)
    public var pixelBudgetMegapixels: Int = 100
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
