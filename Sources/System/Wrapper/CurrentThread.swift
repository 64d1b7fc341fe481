import Glibc

/// The calling thread.
public enum CurrentThread {
    /// The thread's identity while it runs (`pthread_self`), as a number to keep in a set: two threads alive at once
    /// never share it, though a thread that ended may pass it on to a new one.
    public static var id: UInt { UInt(bitPattern: Int(bitPattern: pthread_self())) }
}
