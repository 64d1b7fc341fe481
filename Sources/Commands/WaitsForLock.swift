import Catalogue

/// A command that takes the catalogue's lock and so declares `--wait[=SECONDS]` (`@Option(SharedOptions.wait)`):
/// `Album` reads the declared value from the command, once, and binds it for the lock (`CatalogueLock.wait`).
protocol WaitsForLock {
    /// How long to wait for another album's lock; nil to fail at once.
    var wait: LockWait? { get }
}
