import Glibc

/// The process's signal dispositions and the calling thread's signal mask.
///
/// ```
/// ProcessSignals.ignoreBrokenPipe()                 // a write to a reader that went away fails with EPIPE
/// let mask = ProcessSignals.block([ProcessSignals.interrupt, ProcessSignals.terminate])
/// let file = try SignalFile(watching: [ProcessSignals.interrupt, ProcessSignals.terminate])
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

    /// Sets `number`'s disposition to ignore (`signal(number, SIG_IGN)`).
    public static func ignore(_ number: Int32) { _ = signal(number, SIG_IGN) }

    /// Makes a delivery of `number` to a thread that does not block it harmless: that thread blocks it and sends it
    /// to the process again, so it stays pending for a `SignalFile`. The signals a `SignalFile` reads are blocked in
    /// every thread album makes; this covers one that a library made before they were.
    public static func redirectToSignalFile(_ number: Int32) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { number in
            // Only async-signal-safe calls: pthread_sigmask, kill, getpid, and the sigset macros' functions.
            var set = sigset_t()
            sigemptyset(&set)
            sigaddset(&set, number)
            pthread_sigmask(SIG_BLOCK, &set, nil)
            kill(getpid(), number)
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        _ = sigaction(number, &action, nil)
    }

    /// Restores `number`'s default action (`SIG_DFL`).
    public static func restoreDefault(_ number: Int32) { _ = signal(number, SIG_DFL) }

    /// Blocks `numbers` in the calling thread (`pthread_sigmask(SIG_BLOCK)`), so that the kernel leaves them
    /// pending for a signalfd (`SignalFile`) instead of delivering them to this thread.
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
