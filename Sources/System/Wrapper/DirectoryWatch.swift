internal import CSystem
import Glibc

/// Folders watched with inotify(7): what was written, moved in, made or removed in them, read with a timeout.
///
/// ```
/// let watch = try DirectoryWatch()
/// let tree = watch.addTree("/photos") { folder in !folder.hasSuffix("/album") }   // every folder under it
/// for event in try watch.events(waitingMilliseconds: 200) {                        // [] when nothing came
///     if event.kind == .overflow { … }                                             // events were lost: scan again
/// }
/// watch.close()
/// ```
/// An inotify watch is not recursive: each folder is added on its own, and a folder made later is added when its
/// `created` event is read (`addTree`, which also returns the files already in it: they may have been written
/// before its watch existed). The kernel queues at most `/proc/sys/fs/inotify/max_queued_events` events; past that
/// it drops them and queues one `IN_Q_OVERFLOW`, read here as `.overflow`.
public final class DirectoryWatch {
    /// One event, for a name in a watched folder.
    public struct Event: Sendable, Equatable {
        public enum Kind: Sendable, Equatable {
            /// A file opened for writing was closed (`IN_CLOSE_WRITE`): its writer is done with it.
            case closedAfterWrite
            /// Renamed into a watched folder (`IN_MOVED_TO`): it arrived whole.
            case movedIn
            /// Made (`IN_CREATE`): a file may still be being written; a folder needs its own watch.
            case created
            /// Written to (`IN_MODIFY`).
            case modified
            /// Removed, or renamed away (`IN_DELETE`, `IN_MOVED_FROM`).
            case removed
            /// The kernel's queue overflowed (`IN_Q_OVERFLOW`): events were lost, `path` is empty.
            case overflow
        }

        public var kind: Kind
        /// The watched folder's path, a slash, and the name the event is for.
        public var path: String
        /// Whether the name is a folder (`IN_ISDIR`).
        public var isFolder: Bool

        public init(kind: Kind, path: String, isFolder: Bool) {
            self.kind = kind
            self.path = path
            self.isFolder = isFolder
        }
    }

    /// What `addTree` found under a root: the folders now watched, the other entries, and the folders it could not watch.
    public struct Tree: Sendable, Equatable {
        public var folders: [String] = []
        /// Everything that is not a folder (files, links, …), by path.
        public var files: [String] = []
        public var failures: [SystemError] = []
    }

    /// The events asked for on every folder; the kernel adds `IN_IGNORED` (a watch gone) and `IN_Q_OVERFLOW`.
    private static let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_MODIFY | IN_DELETE | IN_MOVED_FROM)
        | UInt32(IN_ONLYDIR) | UInt32(IN_EXCL_UNLINK)
    /// `struct inotify_event`'s fixed part: wd, mask, cookie, len (<sys/inotify.h>); `len` bytes of name follow.
    private static let headerSize = 16

    private var descriptor: Int32
    /// Each watch descriptor's folder.
    private var folders: [Int32: String] = [:]
    /// The read buffer: room for many events (each at most 16 bytes + NAME_MAX + 1, which inotify(7) says a
    /// buffer must hold at least one of, or read fails with EINVAL).
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)

    /// How many folders are watched.
    public var folderCount: Int { folders.count }

    /// Opens an inotify instance (`inotify_init1`, non-blocking, close-on-exec).
    /// - Throws: `SystemError` when the user's limit of instances is reached (`EMFILE`).
    public init() throws(SystemError) {
        descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { throw SystemError.last("inotify_init1") }
    }

    /// Watches `folder` (not what is under it; a link to a folder is followed). Adding a folder already watched changes nothing.
    /// - Throws: `SystemError` from `inotify_add_watch`: not a folder, gone, or the user's watch limit
    ///   (`/proc/sys/fs/inotify/max_user_watches`, `ENOSPC`).
    public func add(_ folder: String) throws(SystemError) {
        let watch = NativePath.withCString(folder) { inotify_add_watch(descriptor, $0, DirectoryWatch.mask) }
        guard watch >= 0 else { throw SystemError.last("inotify_add_watch", path: folder) }
        folders[watch] = folder
    }

    /// Watches `root` and every folder under it that `entering` allows (called with each folder's path, `root`
    /// too), by raw directory entries and without following links; returns what it found.
    public func addTree(_ root: String, entering: (String) -> Bool) -> Tree {
        var tree = Tree()
        var pending = [root]
        while let folder = pending.popLast() {
            guard entering(folder) else { continue }
            do {
                try add(folder)
            } catch {
                tree.failures.append(error)
                continue
            }
            tree.folders.append(folder)
            for name in Directory.entries(of: folder).names {
                let path = folder == "/" ? "/" + name : folder + "/" + name
                guard let status = try? FileStatus(path, followingLinks: false) else { continue }
                if status.isDirectory { pending.append(path) } else { tree.files.append(path) }
            }
        }
        return tree
    }

    /// The events that came, waiting up to `milliseconds` for the first (`poll`); empty when none came or a signal
    /// interrupted the wait. Every event already queued is read.
    /// - Throws: `SystemError` from `poll` or `read`.
    public func events(waitingMilliseconds milliseconds: Int32) throws(SystemError) -> [Event] {
        var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let polled = poll(&ready, 1, milliseconds)
        if polled < 0 {
            let error = SystemError.last("poll")
            if error.interrupted { return [] }
            throw error
        }
        guard polled > 0 else { return [] }
        var events: [Event] = []
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                let error = SystemError.last("read")
                if error.interrupted { continue }
                if error.wouldBlock { return events }  // everything queued is read
                throw error
            }
            guard count > 0 else { return events }
            events += parse(count: count)
        }
    }

    /// The events in the first `count` bytes of the buffer. Each is a `struct inotify_event` of 16 bytes and then
    /// `len` bytes of name, NUL-padded (inotify(7)); read field by field with unaligned loads, and never past `count`.
    private func parse(count: Int) -> [Event] {
        var events: [Event] = []
        buffer.withUnsafeBytes { bytes in
            var offset = 0
            while offset + DirectoryWatch.headerSize <= count {
                let watch = bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                let mask = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                let nameStart = offset + DirectoryWatch.headerSize
                guard nameStart + length <= count else { break }  // the kernel writes whole events; stop if not
                let name = NativePath.string(Array(bytes[nameStart..<(nameStart + length)].prefix { $0 != 0 }))
                offset = nameStart + length
                if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                    events.append(Event(kind: .overflow, path: "", isFolder: false))
                    continue
                }
                if mask & UInt32(IN_IGNORED) != 0 {  // the folder was removed or unmounted: its watch is gone
                    folders[watch] = nil
                    continue
                }
                guard let folder = folders[watch], !name.isEmpty, let kind = DirectoryWatch.kind(of: mask) else { continue }
                let path = folder == "/" ? "/" + name : folder + "/" + name
                events.append(Event(kind: kind, path: path, isFolder: mask & UInt32(IN_ISDIR) != 0))
            }
        }
        return events
    }

    /// The kind an event's mask means; nil for one not asked for.
    private static func kind(of mask: UInt32) -> Event.Kind? {
        if mask & UInt32(IN_CLOSE_WRITE) != 0 { return .closedAfterWrite }
        if mask & UInt32(IN_MOVED_TO) != 0 { return .movedIn }
        if mask & UInt32(IN_CREATE) != 0 { return .created }
        if mask & UInt32(IN_MODIFY) != 0 { return .modified }
        if mask & UInt32(IN_DELETE | IN_MOVED_FROM) != 0 { return .removed }
        return nil
    }

    /// Closes the instance, which removes every watch. Safe to call twice.
    public func close() {
        guard descriptor >= 0 else { return }
        _ = Glibc.close(descriptor)
        descriptor = -1
        folders = [:]
    }

    deinit { close() }
}
