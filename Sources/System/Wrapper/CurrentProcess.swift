import Glibc

/// This process: its id, pauses, and ending it at once.
public enum CurrentProcess {
    /// The process id (`getpid`).
    public static var id: Int32 { getpid() }

    /// Ends the process with `status` (`exit`): atexit handlers run and C's buffered streams are flushed. How
    /// `album` returns its exit status.
    public static func exit(_ status: Int32) -> Never { Glibc.exit(status) }

    /// Ends the process now with `status` (`_exit`): no atexit handlers, no buffers flushed, no waiting on a lock.
    /// For a second signal, when nothing may delay the end.
    public static func exitImmediately(_ status: Int32) -> Never { _exit(status) }

    /// Sleeps the calling thread for `milliseconds`.
    public static func sleep(milliseconds: Int) { _ = usleep(useconds_t(milliseconds * 1000)) }
}
