import Glibc

/// A lock file held with `flock(2)`: exclusive, taken without waiting, dropped by the kernel when its holder ends,
/// however it ends. The file can carry a short text (who holds it) for others to read.
///
/// ```
/// let file = try FileLock(path: folder + "/x.lock")    // open, creating it (0644)
/// guard try file.tryLock() else { print(file.read(maxBytes: 128)); file.close(); … }
/// file.replaceContents(Array("\(CurrentProcess.id)\n".utf8))
/// file.close()                                            // releases the lock
/// ```
public final class FileLock {
    /// The lock file's path, for messages.
    public let path: String
    private var descriptor: Int32

    /// Opens `path` read-write, creating it (mode 0644) when missing. Takes no lock yet.
    /// - Throws: `SystemError` from `open`.
    public init(path: String) throws(SystemError) {
        self.path = path
        descriptor = NativePath.withCString(path) { open($0, O_RDWR | O_CREAT | O_CLOEXEC, 0o644) }
        guard descriptor >= 0 else { throw SystemError.last("open", path: path) }
    }

    /// Takes the exclusive lock without waiting (`LOCK_EX | LOCK_NB`).
    /// - Returns: false when another open file holds it.
    /// - Throws: `SystemError` from `flock` for any other failure.
    public func tryLock() throws(SystemError) -> Bool {
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let error = SystemError.last("flock", path: path)
            if error.wouldBlock { return false }
            throw error
        }
        return true
    }

    /// Takes the exclusive lock, waiting while another open file holds it (`LOCK_EX`; a signal's interruption is
    /// retried). For a lock whose holders are known to finish: a second copy of a distributed run's chunk waits for the
    /// first, then finds its work done.
    /// - Throws: `SystemError` from `flock`.
    public func lock() throws(SystemError) {
        while flock(descriptor, LOCK_EX) != 0 {
            let error = SystemError.last("flock", path: path)
            if error.interrupted { continue }
            throw error
        }
    }

    /// Up to `maxBytes` from the start of the file (`pread`); empty when it holds nothing or cannot be read.
    public func read(maxBytes: Int) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: maxBytes)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        return count > 0 ? Array(buffer[..<count]) : []
    }

    /// Replaces the file's content with `bytes` (`ftruncate`, then `pwrite` at 0).
    /// - Returns: whether every byte was written.
    @discardableResult
    public func replaceContents(_ bytes: [UInt8]) -> Bool {
        guard ftruncate(descriptor, 0) == 0 else { return false }
        return bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) } == bytes.count
    }

    /// Empties the file (`ftruncate` to 0).
    public func truncate() { _ = ftruncate(descriptor, 0) }

    /// Closes the file, which releases the lock (closing the last descriptor of the open file releases the flock).
    /// Safe to call twice.
    public func close() {
        guard descriptor >= 0 else { return }
        _ = Glibc.close(descriptor)
        descriptor = -1
    }

    deinit { close() }
}
