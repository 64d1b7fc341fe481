import Foundation
import System
import Core

/// The writer's lock on a catalogue: one album process at a time may change a catalogue.
///
/// It is an `flock(2)` on `catalogue.lock` in the catalogue folder. The kernel drops the lock when its holder
/// ends, however it ends (`kill -9` included), so a lock left by a dead process never blocks: the file stays, but
/// nobody holds it. The holder writes its pid and start time into the file, only for the message a second process
/// prints. Readers (`ls`, `show`, `runs`) do not take it: in WAL mode SQLite lets them read while a run writes.
///
/// ```
/// let lock = try CatalogueLock(folder: "/photos/album")   // throws at once when another album holds it (unless `wait`)
/// defer { lock.release() }
/// ```
package final class CatalogueLock {
    /// The lock file's name inside the catalogue folder.
    static let fileName = "catalogue.lock"

    /// The lock file's path, for messages.
    package let path: String
    private var file: FileLock?

    /// Takes the lock, waiting for it only as `CatalogueLock.wait` says (`--wait`).
    /// - Throws: `CatalogueError` "catalogue DIR is in use by album pid N since TIME" when another process holds it
    ///   (after the wait, when there is one with a limit),
    ///   or naming the lock file when it cannot be opened.
    package init(folder: String) throws {
        path = folder + "/" + CatalogueLock.fileName
        let file: FileLock
        do {
            file = try FileLock(path: path)
        } catch {
            throw CatalogueError("cannot open the catalogue's lock file \(path): \(error.reason)")
        }
        var locked: Bool
        do {
            locked = try file.tryLock()
            if !locked, let wait = CatalogueLock.wait {
                Console.err("album: catalogue \(folder) is in use by \(CatalogueLock.who(file)); waiting for it"
                            + (wait.seconds.map { " (up to \(CatalogueLock.seconds($0)))" } ?? ""))
                locked = try CatalogueLock.take(file, waiting: wait)
            }
        } catch {
            file.close()
            throw CatalogueError("cannot lock catalogue \(folder) (\(path)): \(error.reason)")
        }
        guard locked else {
            let who = CatalogueLock.who(file)
            file.close()
            if let limit = CatalogueLock.wait?.seconds {
                throw CatalogueError("catalogue \(folder) is still in use by \(who) after waiting \(CatalogueLock.seconds(limit)); wait longer (--wait=SECONDS, or --wait for no limit), or stop it, then try again")
            }
            var error = CatalogueError("catalogue \(folder) is in use by \(who); wait for it to finish (--wait), or stop it, then try again")
            error.lockHeld = true
            throw error
        }
        // The text is only for messages: a failure to write it does not weaken the lock itself.
        file.replaceContents(Array("\(CurrentProcess.id) \(Timestamp.now())\n".utf8))
        self.file = file
    }

    /// Releases the lock. Safe to call twice.
    package func release() {
        guard let file else { return }
        file.truncate()
        file.close()  // closing the last descriptor of the open file releases the flock
        self.file = nil
    }

    deinit { release() }

    /// How long a writer in this task waits for a lock another album holds: nil (the default) stops at once.
    /// `Album` binds it for the run of a command given `--wait[=SECONDS]`.
    @TaskLocal package static var wait: LockWait?

    /// Takes the lock within `wait`: a blocking `flock` without a limit, else tries every `pollMilliseconds`.
    /// - Returns: false when the limit passed first.
    private static func take(_ file: FileLock, waiting wait: LockWait) throws(SystemError) -> Bool {
        guard let seconds = wait.seconds else {
            try file.lock()
            return true
        }
        let clock = ContinuousClock()
        let deadline = clock.now + .milliseconds(Int(seconds * 1000))
        while clock.now < deadline {
            CurrentProcess.sleep(milliseconds: LockWait.pollMilliseconds)
            if try file.tryLock() { return true }
        }
        return false
    }

    /// Who holds the writer lock of the catalogue in `folder` now ("album pid N since TIME"); nil when nobody does, or
    /// there is no catalogue there yet. It tries the lock and drops it at once: for a caller that waits for the lock
    /// in its own loop, where it can still hear a signal (`album watch`), instead of in a blocking `flock`.
    package static func heldBy(folder: String) -> String? {
        let path = folder + "/" + fileName
        guard FileSystem.exists(path), let file = try? FileLock(path: path) else { return nil }
        defer { file.close() }
        guard let free = try? file.tryLock(), !free else { return nil }
        return who(file)
    }

    /// "album pid N since TIME", or "another album process" before the holder wrote its line.
    private static func who(_ file: FileLock) -> String {
        holder(file).map { "album pid \($0.pid) since \(Timestamp.local($0.since))" } ?? "another album process"
    }

    /// `30 s`, `1.5 s`.
    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }

    /// The pid and start time the holder wrote, if it has written them yet.
    private static func holder(_ file: FileLock) -> (pid: Int, since: String)? {
        for attempt in 0..<3 {
            if attempt > 0 { CurrentProcess.sleep(milliseconds: 20) }  // the holder writes its line just after it takes the lock
            let bytes = file.read(maxBytes: 128)
            guard !bytes.isEmpty else { continue }
            let fields = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isWhitespace)
            if fields.count >= 2, let pid = Int(fields[0]) { return (pid, String(fields[1])) }
        }
        return nil
    }
}
