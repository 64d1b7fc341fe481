import Glibc

/// A thread's signal mask as it was before `ProcessSignals.block(_:)`, to put back on the same thread.
public struct SignalMask {
    let previous: sigset_t

    /// Restores the mask on the calling thread (`pthread_sigmask(SIG_SETMASK)`).
    public func restore() {
        var previous = self.previous
        pthread_sigmask(SIG_SETMASK, &previous, nil)
    }
}
