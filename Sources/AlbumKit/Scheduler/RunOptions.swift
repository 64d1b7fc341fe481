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
    /// 40 MP is about 120 MB of 8-bit RGB: two 17 MP progressive JPEGs decode one after the other.
    public var pixelBudgetMegapixels: Int = 40
    /// After a first SIGINT or SIGTERM, how long photos in flight may take to finish before they are abandoned.
    public var graceSeconds: Double = 10
    public init() {}
}
