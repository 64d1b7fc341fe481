import System

/// The files `album watch` has seen change and not yet handed to a run, and when each is complete.
///
/// A file is complete when its writer closed it (`IN_CLOSE_WRITE`) or it was renamed into place: both say its bytes
/// are whole, unless there are none (a file made empty is written next, as `touch` then a copy do). A file found by a scan (at start, in a new folder, after the kernel dropped events) is complete once
/// its size and modification time have stayed the same for `settle` seconds, and is not empty. A file seen written
/// to (`IN_MODIFY`) waits for its writer's close, however long it pauses: a write needs an open descriptor, and the
/// kernel closes a dead writer's descriptors too, so the `IN_CLOSE_WRITE` comes. Only when the kernel dropped events
/// (`lostEvents()`), that close among them perhaps, does such a file fall back to the stillness rule. A batch is due when `settle` seconds have passed without an event (or `longestWait` since the
/// first waiting one, so a steady stream of files is still taken in batches) and some file is complete.
///
/// ```
/// var pending = PendingFiles(settle: 1)
/// pending.saw("/photos/a.jpg", .complete, at: now)
/// if pending.isDue(at: now + 1) { let batch = pending.ready(at: now + 1); …run…; pending.take(batch, at: …) }
/// ```
struct PendingFiles {
    /// What an event or a scan says about a file.
    enum Evidence: Sendable, Equatable {
        /// Closed after writing, or moved in: whole.
        case complete
        /// Found by a scan, or made (`IN_CREATE`, as a hard link is): whole once it stops changing.
        case found
        /// Written to (`IN_MODIFY`), its writer not done yet: complete only at its close.
        case written
    }

    package struct Entry: Equatable {
        var evidence: Evidence
        /// Its size and modification time when last looked at (nil: not looked at yet, or not a regular file).
        package var identity: [Int]?
        /// When `identity` was first seen as it is, or the last event for it came.
        package var since: Double
    }

    /// The quiet interval, in seconds (`--settle`).
    package let settle: Double
    package private(set) var entries: [String: Entry] = [:]
    /// When the last event came.
    private var lastEvent: Double?
    /// When the oldest event not yet taken by a batch came.
    private var firstEvent: Double?

    package init(settle: Double) { self.settle = settle }

    /// The longest a batch waits for a quiet interval once an event came.
    var longestWait: Double { max(10, settle * 10) }

    package var isEmpty: Bool { entries.isEmpty }

    /// Records what an event or a scan says about `path`. A scan never makes a file already known less complete.
    mutating func saw(_ path: String, _ evidence: Evidence, at now: Double) {
        if evidence == .found, entries[path] != nil { return }
        entries[path] = Entry(evidence: evidence, identity: nil, since: now)
        lastEvent = now
        if firstEvent == nil { firstEvent = now }
    }

    /// The kernel dropped events (`IN_Q_OVERFLOW`): a file seen written may have been closed unseen, so it is
    /// complete once it stays unchanged, as a file a scan finds.
    mutating func lostEvents(at now: Double) {
        for (path, entry) in entries where entry.evidence == .written {
            entries[path] = Entry(evidence: .found, identity: nil, since: now)
        }
    }

    /// Forgets `path`: it was removed or renamed away.
    package mutating func removed(_ path: String) { entries[path] = nil }

    /// Looks again at each file (`status`: `FileStatus.of`): its size, and whether it stopped changing; forgets one
    /// that is gone.
    package mutating func check(at now: Double, status: (String) -> FileStatus?) {
        for (path, entry) in entries {
            guard let info = status(path) else {
                entries[path] = nil
                continue
            }
            let identity = info.isRegular ? [info.size, info.modifiedNanoseconds] : nil
            if identity != entry.identity {
                entries[path]?.identity = identity
                entries[path]?.since = now
            }
        }
    }

    /// The files complete at `now`.
    package func ready(at now: Double) -> Set<String> {
        Set(entries.compactMap { path, entry in isReady(entry, at: now) ? path : nil })
    }

    /// Whether a batch should run now: a quiet interval after the last event (or `longestWait` after the first),
    /// and some file complete.
    func isDue(at now: Double) -> Bool {
        guard let lastEvent, let firstEvent else { return false }
        guard now - lastEvent >= settle || now - firstEvent >= longestWait else { return false }
        return entries.values.contains { isReady($0, at: now) }
    }

    /// Whether every file waiting is complete, or empty (`--once` runs then: an empty file may never be written).
    func allReady(at now: Double) -> Bool { entries.values.allSatisfy { isReady($0, at: now) || $0.identity?[0] == 0 } }

    /// Takes `batch` out: a run has them now. Files still waiting count as waiting from `now`.
    package mutating func take(_ batch: Set<String>, at now: Double) {
        for path in batch { entries[path] = nil }
        firstEvent = entries.isEmpty ? nil : now
        if entries.isEmpty { lastEvent = nil }
    }

    private func isReady(_ entry: Entry, at now: Double) -> Bool {
        switch entry.evidence {
        // An empty file is never a photo yet: one made, then opened again to be written (`touch`, then a copy).
        case .complete: entry.identity.map { $0[0] > 0 } ?? false
        case .found: (entry.identity.map { $0[0] > 0 } ?? false) && now - entry.since >= settle
        case .written: false
        }
    }
}
