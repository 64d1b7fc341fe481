internal import CSystem
import Glibc

/// A signalfd: blocked signals read one at a time, each read one signal, none merged with another.
///
/// ```
/// let mask = ProcessSignals.block([ProcessSignals.interrupt])   // in every thread, or the kernel may deliver it
/// let file = try SignalFile(watching: [ProcessSignals.interrupt])
/// // when `file.descriptor` is readable:
/// for number in file.take() { … }                              // every signal that arrived, in order
/// ```
/// Dispatch's own signal sources cannot count: on Linux, libdispatch stores 1 as a source's pending data for each
/// signal it reads (`_dispatch_event_merge_signal`, event_epoll.c), so two signals that arrive before the handler
/// runs are one event. This reads the signalfd itself, so each signal the kernel queued is seen. (The kernel still
/// keeps only one pending instance of a standard signal: two sent before either is read are one.)
public final class SignalFile: @unchecked Sendable {
    // @unchecked: `descriptor` never changes after init, and `take()` and `close()` are called from one serial
    // queue (SignalWatch's), never at once.
    public let descriptor: Int32

    /// Opens a non-blocking signalfd for `numbers`. Block them first (`ProcessSignals.block`), in every thread.
    /// - Throws: `SystemError` when the kernel refuses one (no descriptors left).
    public init(watching numbers: [Int32]) throws(SystemError) {
        var set = sigset_t()
        sigemptyset(&set)
        for number in numbers { sigaddset(&set, number) }
        let descriptor = signalfd(-1, &set, Int32(SFD_NONBLOCK | SFD_CLOEXEC))
        guard descriptor >= 0 else { throw SystemError.last("signalfd") }
        self.descriptor = descriptor
    }

    /// Every signal waiting on the file, in the order they arrived; empty when none is.
    public func take() -> [Int32] {
        var numbers: [Int32] = []
        var info = signalfd_siginfo()
        while true {
            let count = withUnsafeMutableBytes(of: &info) { read(descriptor, $0.baseAddress, $0.count) }
            if count == MemoryLayout<signalfd_siginfo>.size {
                numbers.append(Int32(bitPattern: info.ssi_signo))
            } else if count < 0, errno == EINTR {
                continue
            } else {
                return numbers  // EAGAIN: nothing more is pending
            }
        }
    }

    /// Closes the file; signals still pending stay pending for the process.
    public func close() { _ = Glibc.close(descriptor) }
}
