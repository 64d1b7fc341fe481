import Glibc

/// A recursive mutex (glibc's `PTHREAD_MUTEX_RECURSIVE`): the thread that holds it may take it again, and it is
/// free once each `lock()` has had its `unlock()`. album's one recursive lock: the Vips wrapper's `ProgramLock`, where
/// a release inside a build (libvips dropping an intermediate of its own) must not deadlock.
///
/// ```
/// let lock = RecursiveLock()
/// lock.withLock { lock.withLock { /* the same thread, no deadlock */ } }
/// ```
public final class RecursiveLock: @unchecked Sendable {
    // Sendable: the pthread mutex is the synchronisation itself, and the pointer is allocated once, never moved, and
    // freed only when no thread can hold a reference.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    public init() {
        mutex = .allocate(capacity: 1)
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        // pthread_mutex_init(3): fails only for attributes that are not valid, or when memory runs out.
        precondition(pthread_mutex_init(mutex, &attributes) == 0, "pthread_mutex_init cannot fail with valid attributes")
        pthread_mutexattr_destroy(&attributes)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Takes the lock, waiting for another thread that holds it.
    public func lock() { precondition(pthread_mutex_lock(mutex) == 0, "a recursive mutex cannot deadlock on its owner") }

    /// Releases one `lock()`.
    public func unlock() { precondition(pthread_mutex_unlock(mutex) == 0, "unlocked by a thread that does not hold it") }

    /// Runs `body` with the lock held.
    public func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}
