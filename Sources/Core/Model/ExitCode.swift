/// album's exit statuses (the README's table).
public enum ExitCode: Int32, Sendable {
    /// Every step done or skipped.
    case ok = 0
    /// The run finished, but some photos failed.
    case failures = 1
    /// A usage or job-file error.
    case usage = 2
    /// A catalogue or environment error: catalogue locked, unwritable or damaged; libvips missing; stdout or
    /// stderr closed, full or broken (for `album run`, the stream its output goes to).
    case environment = 3
    /// A distributed chunk met trouble in its environment (an unmounted share, a missing catalogue, another album
    /// on this node): the engine should run it again, elsewhere if it can (`EX_TEMPFAIL`; docs/distributed.md).
    case retry = 75
    /// Interrupted by SIGINT.
    case interrupted = 130
    /// Interrupted by SIGTERM.
    case terminated = 143
}
