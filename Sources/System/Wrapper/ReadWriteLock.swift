import Glibc

/// A readers-writer lock that prefers writers (glibc's `PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP`): many
/// threads may hold it shared, one exclusive, and a thread waiting for it exclusive is not starved by others taking
/// it shared again and again. Not recursive: a thread must not take it twice. album's one: the Vips wrapper's
/// `Attribution` gate, where a rendering waiting to run alone must get its turn.
///
/// ```
/// let gate = ReadWriteLock()
/// gate.withShared { /* many renderings at once */ }
/// gate.withExclusive { /* one alone */ }
/// ```
public final class ReadWriteLock: @unchecked Sendable {
    // Sendable: the pthread lock is the synchronisation itself, and the pointer is allocated once, never moved, and
    // freed only when no thread can hold a reference.
    private let rwlock: UnsafeMutablePointer<pthread_rwlock_t>

    public init() {
        rwlock = .allocate(capacity: 1)
        var attributes = pthread_rwlockattr_t()
        pthread_rwlockattr_init(&attributes)
        pthread_rwlockattr_setkind_np(&attributes, Int32(PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP))
        // pthread_rwlock_init(3): fails only for attributes that are not valid, or when memory runs out.
        precondition(pthread_rwlock_init(rwlock, &attributes) == 0, "pthread_rwlock_init cannot fail with valid attributes")
        pthread_rwlockattr_destroy(&attributes)
    }

    deinit {
        pthread_rwlock_destroy(rwlock)
        rwlock.deallocate()
    }

    /// Takes the lock shared, waiting while a thread holds it exclusive or waits to.
    public func lockShared() { precondition(pthread_rwlock_rdlock(rwlock) == 0, "rdlock: only EDEADLK, which nesting rules out") }

    /// Takes the lock exclusive, waiting for every holder.
    public func lockExclusive() { precondition(pthread_rwlock_wrlock(rwlock) == 0, "wrlock: only EDEADLK, which nesting rules out") }

    /// Releases the lock, shared or exclusive.
    public func unlock() { precondition(pthread_rwlock_unlock(rwlock) == 0, "unlocked by a thread that does not hold it") }

    /// Runs `body` with the lock held shared.
    public func withShared<T>(_ body: () throws -> T) rethrows -> T {
        lockShared()
        defer { unlock() }
        return try body()
    }

    /// Runs `body` with the lock held exclusive.
    public func withExclusive<T>(_ body: () throws -> T) rethrows -> T {
        lockExclusive()
        defer { unlock() }
        return try body()
    }
}
