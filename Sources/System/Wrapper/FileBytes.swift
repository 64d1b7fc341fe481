import Glibc

/// The whole content of one file, read once into memory that libvips can decode from and libcrypto can hash.
///
/// A file is opened read-only with `O_NONBLOCK | O_NOCTTY`, and only a regular file is read: a FIFO or device
/// named like a photo can never block or be read. album never opens an original any other way.
// @unchecked: the bytes are written only inside `init`, read-only afterwards, and freed in `deinit`.
public final class FileBytes: @unchecked Sendable {
    /// The path the bytes came from.
    public let path: String
    private let storage: UnsafeMutableRawBufferPointer
    /// The file's SHA-256, when it was hashed as it was streamed (`init(path:streamingHead:)`).
    let streamedHash: String?
    /// The file's size in bytes: `count` when the bytes are the whole file, more when only its head is held.
    public let size: Int

    /// Reads `path` fully.
    /// - Parameter maxBytes: larger files are refused before they are read.
    /// - Throws: `FileBytesError` naming the path and the reason.
    public init(path: String, maxBytes: Int = 1 << 31) throws {
        self.path = path
        let (fd, info) = try FileBytes.openRegular(path)
        defer { close(fd) }
        let size = Int(info.st_size)
        guard size <= maxBytes else {
            throw FileBytesError(path: path, reason: "file is \(size) bytes, over the limit of \(maxBytes)")
        }
        // malloc, not Swift's allocate: under an address-space limit a file too large for what is left must fail
        // this photo, where Swift's allocator would end the process ("failed to allocate", SIGABRT).
        guard let base = malloc(max(size, 1)) else {
            let limit = AddressSpace.limitDescription.map { "; \($0)" } ?? ""
            throw FileBytesError(path: path, reason: "not enough memory to hold its \(size) bytes\(limit)")
        }
        let storage = UnsafeMutableRawBufferPointer(start: base, count: max(size, 1))
        var done = 0
        while done < size {
            let n = read(fd, storage.baseAddress! + done, size - done)
            if n < 0 {
                if errno == EINTR { continue }
                let reason = String(cString: strerror(errno))
                free(storage.baseAddress)
                throw FileBytesError(path: path, reason: reason)
            }
            if n == 0 { break }  // The file shrank while being read: keep what is there; the hash says which bytes.
            done += n
        }
        var after = stat()
        if done != size || fstat(fd, &after) != 0 || after.st_size != info.st_size
            || after.st_mtim.tv_sec != info.st_mtim.tv_sec || after.st_mtim.tv_nsec != info.st_mtim.tv_nsec {
            free(storage.baseAddress)
            throw FileBytesError(path: path, reason: "the file changed while it was being read (is it still being copied?)")
        }
        self.storage = UnsafeMutableRawBufferPointer(rebasing: storage[0..<done])
        self.size = done
        self.streamedHash = nil
        if done == 0 { free(storage.baseAddress) }
    }

    /// At most the first `limit` bytes of `path`, for a header read before the file is read whole (the scheduler's
    /// look at a new photo's frame header). Opened as `init(path:maxBytes:)` opens it: a regular file only.
    public init(path: String, firstBytes limit: Int) throws {
        self.path = path
        let (fd, info) = try FileBytes.openRegular(path)
        defer { close(fd) }
        let size = min(Int(info.st_size), max(limit, 0))
        guard let base = malloc(max(size, 1)) else { throw FileBytesError(path: path, reason: "not enough memory") }
        var done = 0
        while done < size {
            let n = pread(fd, base + done, size - done, off_t(done))
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            done += n
        }
        storage = UnsafeMutableRawBufferPointer(start: base, count: done)
        self.size = done
        self.streamedHash = nil
        if done == 0 { free(base) }
    }

    /// The first `headBytes` of `path`, with the whole file's SHA-256 computed as it is streamed through libcrypto a
    /// mebibyte at a time: for a file a decoder opens by its path (a video), so a file of any size is hashed in
    /// constant memory and never held whole. Opened as `init(path:maxBytes:)` opens it: a regular file only.
    /// - Throws: `FileBytesError` naming the path and the reason (not a regular file, a read error, the file changed
    ///   while it was read); `SystemError` when libcrypto fails.
    public init(path: String, streamingHead headBytes: Int) throws {
        self.path = path
        let (fd, info) = try FileBytes.openRegular(path)
        defer { close(fd) }
        let chunk = 1 << 20
        guard let buffer = malloc(chunk) else { throw FileBytesError(path: path, reason: "not enough memory") }
        defer { free(buffer) }
        var hasher = try SHA256()
        var head = [UInt8]()
        var done = 0
        while true {
            let n = read(fd, buffer, chunk)
            if n < 0 {
                if errno == EINTR { continue }
                throw FileBytesError(path: path, reason: String(cString: strerror(errno)))
            }
            if n == 0 { break }
            let piece = UnsafeRawBufferPointer(start: buffer, count: n)
            do { try hasher.update(piece) } catch var error as SystemError {
                error.path = path
                throw error
            }
            if head.count < headBytes { head += piece.prefix(headBytes - head.count) }
            done += n
        }
        var after = stat()
        if done != Int(info.st_size) || fstat(fd, &after) != 0 || after.st_size != info.st_size
            || after.st_mtim.tv_sec != info.st_mtim.tv_sec || after.st_mtim.tv_nsec != info.st_mtim.tv_nsec {
            throw FileBytesError(path: path, reason: "the file changed while it was being read (is it still being copied?)")
        }
        do { streamedHash = try hasher.finalizeHex() } catch var error as SystemError {
            error.path = path
            throw error
        }
        storage = try head.withUnsafeBytes { try FileBytes.copy($0, path: path) }
        size = done
    }

    /// Whether the bytes held are the whole file (not only its head: `init(path:streamingHead:)`).
    public var isWhole: Bool { streamedHash == nil }

    /// Opens `path` read-only without blocking or becoming its controlling terminal, and refuses anything but a
    /// regular file.
    private static func openRegular(_ path: String) throws -> (Int32, stat) {
        let fd = NativePath.withCString(path) { open($0, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC) }
        guard fd >= 0 else { throw FileBytesError(path: path, reason: String(cString: strerror(errno))) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw FileBytesError(path: path, reason: reason)
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw FileBytesError(path: path, reason: "not a regular file")
        }
        return (fd, info)
    }

    /// Bytes already in memory, labelled with a path for messages (for images made in memory).
    /// - Throws: `FileBytesError` ("not enough memory") when the copy cannot be allocated, as a file read does.
    public init(bytes: [UInt8], path: String) throws {
        self.path = path
        self.storage = try bytes.withUnsafeBytes { try FileBytes.copy($0, path: path) }
        self.size = storage.count
        self.streamedHash = nil
    }

    /// A copy of `bytes` (memory a C library owns, such as a camera RAW's embedded preview), labelled with a path
    /// for messages: the one copy album makes of them.
    /// - Throws: `FileBytesError` ("not enough memory") when the copy cannot be allocated, as a file read does.
    public init(copying bytes: UnsafeRawBufferPointer, path: String) throws {
        self.path = path
        self.storage = try FileBytes.copy(bytes, path: path)
        self.size = storage.count
        self.streamedHash = nil
    }

    /// `bytes` copied into memory of album's own, from `malloc` (empty: no memory).
    private static func copy(_ bytes: UnsafeRawBufferPointer, path: String) throws -> UnsafeMutableRawBufferPointer {
        guard !bytes.isEmpty else { return UnsafeMutableRawBufferPointer(start: nil, count: 0) }
        guard let base = malloc(bytes.count) else { throw FileBytesError(path: path, reason: "not enough memory") }
        let storage = UnsafeMutableRawBufferPointer(start: base, count: bytes.count)
        storage.copyMemory(from: bytes)
        return storage
    }

    deinit {
        if storage.count > 0 { free(storage.baseAddress) }
    }

    /// The number of bytes held (`size` is the file's).
    public var count: Int { storage.count }

    /// Calls `body` with the bytes. The pointer is valid only inside `body`.
    public func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(storage))
    }

    /// The first `n` bytes, for sniffing a format from its magic number.
    public func prefix(_ n: Int) -> [UInt8] {
        Array(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(storage).prefix(n)))
    }
}

/// Reading a file failed.
public struct FileBytesError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String { "cannot read \(path): \(reason)" }
}
