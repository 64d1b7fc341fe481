import Glibc

/// Descriptors 0–2 as system calls see them: checked `write(2)`s, and making closed ones safe.
///
/// ```
/// let closed = StandardStreams.reopenClosedOnDevNull()       // at start
/// if let code = StandardStreams.writeAll(bytes, to: 2) { … strerror(code) … }
/// ```
public enum StandardStreams {
    /// Descriptor 2.
    public static let error: Int32 = STDERR_FILENO

    /// Writes every byte to `descriptor`, looping over partial writes and `EINTR`, and waiting (`poll`) on a
    /// non-blocking descriptor that is full (`EAGAIN`).
    /// - Returns: nil when all were written, else the `errno` of the write that failed (`EBADF`, `ENOSPC`, `EPIPE`…).
    public static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32? {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written >= 0 {
                    offset += written
                    continue
                }
                switch errno {
                case EINTR: continue
                case EAGAIN:
                    // A non-blocking descriptor inherited from the caller: wait until it takes more.
                    var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&ready, 1, -1)
                default: return errno
                }
            }
            return nil
        }
    }

    /// Writes `bytes` with one `write(2)` only if `descriptor` can take some at once (`poll` with no wait): for a
    /// process about to end, which must not wait on a stalled reader. Lost when it cannot.
    public static func writeWithoutWaiting(_ bytes: [UInt8], to descriptor: Int32) {
        var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
        guard poll(&ready, 1, 0) == 1, ready.revents & Int16(POLLOUT) != 0 else { return }
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }

    /// Reopens each of descriptors 0–2 that is closed (`fcntl(F_GETFD)` fails with `EBADF`) on `/dev/null`
    /// (read-only for 0, write-only for 1 and 2), so that no file opened later takes its number.
    /// - Returns: the descriptors that were closed.
    public static func reopenClosedOnDevNull() -> Set<Int32> {
        var closed: Set<Int32> = []
        for descriptor: Int32 in 0...2 where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            // open(2) returns the lowest free descriptor, which is this one, since those below it are open by now.
            let opened = open("/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY)
            if opened >= 0, opened != descriptor {
                _ = dup2(opened, descriptor)
                _ = close(opened)
            }
            closed.insert(descriptor)
        }
        return closed
    }

    /// Whether `descriptor` is a terminal (`isatty`).
    public static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) == 1 }
}
