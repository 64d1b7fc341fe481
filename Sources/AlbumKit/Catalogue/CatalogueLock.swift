import Foundation
import System

/// The writer's lock on a catalogue: one album process at a time may change a catalogue.
///
/// It is an `flock(2)` on `catalogue.lock` in the catalogue folder. The kernel drops the lock when its holder
/// ends, however it ends (`kill -9` included), so a lock left by a dead process never blocks: the file stays, but
/// nobody holds it. The holder writes its pid and start time into the file, only for the message a second process
/// prints. Readers (`ls`, `show`, `runs`) do not take it: in WAL mode SQLite lets them read while a run writes.
///
/// ```
/// let lock = try CatalogueLock(folder: "/photos/album")   // throws at once when another album holds it
/// defer { lock.release() }
/// ```
final class CatalogueLock {
    /// The lock file's name inside the catalogue folder.
    static let fileName = "catalogue.lock"

    /// The lock file's path, for messages.
    let path: String
    private var file: FileLock?

    /// Takes the lock without waiting.
    /// - Throws: `CatalogueError` "catalogue DIR is in use by album pid N since TIME" when another process holds it,
    ///   or naming the lock file when it cannot be opened.
    init(folder: String) throws {
        path = folder + "/" + CatalogueLock.fileName
        let file: FileLock
        do {
            file = try FileLock(path: path)
        } catch {
            throw CatalogueError("cannot open the catalogue's lock file \(path): \(error.reason)")
        }
        let locked: Bool
        do {
            locked = try file.tryLock()
        } catch {
            file.close()
            throw CatalogueError("cannot lock catalogue \(folder) (\(path)): \(error.reason)")
        }
        guard locked else {
            let holder = CatalogueLock.holder(file)
            file.close()
            let who = holder.map { "album pid \($0.pid) since \($0.since)" } ?? "another album process"
            throw CatalogueError("catalogue \(folder) is in use by \(who); wait for it to finish, or stop it, then try again")
        }
        // The text is only for messages: a failure to write it does not weaken the lock itself.
        file.replaceContents(Array("\(CurrentProcess.id) \(Timestamp.now())\n".utf8))
        self.file = file
    }

    /// Releases the lock. Safe to call twice.
    func release() {
        guard let file else { return }
        file.truncate()
        file.close()  // closing the last descriptor of the open file releases the flock
        self.file = nil
    }

    deinit { release() }

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
