import Foundation

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
    private var descriptor: Int32

    /// Takes the lock without waiting.
    /// - Throws: `CatalogueError` "catalogue DIR is in use by album pid N since TIME" when another process holds it,
    ///   or naming the lock file when it cannot be opened.
    init(folder: String) throws {
        path = folder + "/" + CatalogueLock.fileName
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw CatalogueError("cannot open the catalogue's lock file \(path): \(CatalogueLock.lastError())")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            let holder = CatalogueLock.holder(descriptor)
            close(descriptor)
            guard code == EWOULDBLOCK else {
                throw CatalogueError("cannot lock catalogue \(folder) (\(path)): \(String(cString: strerror(code)))")
            }
            let who = holder.map { "album pid \($0.pid) since \($0.since)" } ?? "another album process"
            throw CatalogueError("catalogue \(folder) is in use by \(who); wait for it to finish, or stop it, then try again")
        }
        let text = Array("\(getpid()) \(Timestamp.now())\n".utf8)
        // The text is only for messages: a failure to write it does not weaken the lock itself.
        if ftruncate(descriptor, 0) == 0 {
            _ = text.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        }
    }

    /// Releases the lock. Safe to call twice.
    func release() {
        guard descriptor >= 0 else { return }
        _ = ftruncate(descriptor, 0)
        close(descriptor)  // closing the last descriptor of the open file releases the flock
        descriptor = -1
    }

    deinit { release() }

    /// The pid and start time the holder wrote, if it has written them yet.
    private static func holder(_ descriptor: Int32) -> (pid: Int, since: String)? {
        for attempt in 0..<3 {
            if attempt > 0 { usleep(20_000) }  // the holder writes its line just after it takes the lock
            var buffer = [UInt8](repeating: 0, count: 128)
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { continue }
            let fields = String(decoding: buffer[..<count], as: UTF8.self).split(whereSeparator: \.isWhitespace)
            if fields.count >= 2, let pid = Int(fields[0]) { return (pid, String(fields[1])) }
        }
        return nil
    }

    private static func lastError() -> String { String(cString: strerror(errno)) }
}
