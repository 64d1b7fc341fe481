/// How long a writer waits for a catalogue's lock that another album holds (`--wait[=SECONDS]`).
///
/// Without one, `CatalogueLock` stops at once. `seconds` nil waits as long as it takes (a blocking `flock`);
/// a number polls the lock until that much time has passed, then stops as it would have at once.
///
/// ```
/// try CatalogueLock.$wait.withValue(LockWait(seconds: 30)) { try command.run() }
/// ```
package struct LockWait: Sendable, Equatable {
    /// The longest wait in seconds; nil for no limit.
    package var seconds: Double?

    /// How often a wait with a limit tries the lock again.
    static let pollMilliseconds = 150

    package init(seconds: Double? = nil) {
        self.seconds = seconds
    }
}
