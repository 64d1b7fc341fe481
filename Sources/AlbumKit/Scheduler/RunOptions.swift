/// How `album run` runs a job, from its flags.
public struct RunOptions: Sendable {
    /// Photos in flight at once; nil to use the job's `workers`, then the machine's cores.
    public var workers: Int? = nil
    /// Redo every selected step, even when it is up to date.
    public var force: Bool = false
    public init() {}
}
