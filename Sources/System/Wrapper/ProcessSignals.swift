import Glibc

/// The process's signal dispositions and the calling thread's signal mask.
///
/// ```
/// ProcessSignals.ignoreBrokenPipe()                 // a write to a reader that went away fails with EPIPE
/// let mask = ProcessSignals.block([ProcessSignals.interrupt, ProcessSignals.terminate])
/// … Dispatch signal sources …
/// mask.restore()
/// ```
public enum ProcessSignals {
    /// SIGINT (2): Ctrl-C.
    public static let interrupt: Int32 = SIGINT
    /// SIGTERM (15): a polite kill.
    public static let terminate: Int32 = SIGTERM

    /// Ignores SIGPIPE, so that a write to a pipe whose reader went away is an error (`EPIPE`), not a silent death.
    public static func ignoreBrokenPipe() { ignore(SIGPIPE) }

    /// Ignores SIGXFSZ, so that a write over the file-size limit (`ulimit -f`) fails with `EFBIG` instead of ending
    /// the process.
    public static func ignoreFileSizeLimit() { ignore(SIGXFSZ) }

    /// Sets `number`'s disposition to ignore (`signal(number, SIG_IGN)`): a Dispatch signal source still hears it.
    public static func ignore(_ number: Int32) { _ = signal(number, SIG_IGN) }

    /// Restores `number`'s default action (`SIG_DFL`).
    public static func restoreDefault(_ number: Int32) { _ = signal(number, SIG_DFL) }

    /// Blocks `numbers` in the calling thread (`pthread_sigmask(SIG_BLOCK)`), so that the kernel leaves them
    /// pending for a signalfd (Dispatch's signal sources) instead of delivering them to this thread.
    /// - Returns: the mask as it was, to `restore()`.
    public static func block(_ numbers: [Int32]) -> SignalMask {
        var watched = sigset_t()
        sigemptyset(&watched)
        for number in numbers { sigaddset(&watched, number) }
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &watched, &previous)
        return SignalMask(previous: previous)
    }
}
