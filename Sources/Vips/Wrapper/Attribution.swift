internal import CVips
import Synchronization
import System

/// Makes every libvips error and damage warning belong to exactly one photo, whatever the number of workers,
/// libvips threads or CPU load.
///
/// libvips 8.14 gives a failure's text no owner (checked in its `jpeg2vips.c` and `error.c`):
/// - the error buffer is one for the whole process; libjpeg's warnings are appended to it with `vips_error` on the
///   thread that decodes, which is one of libvips' own worker threads during a save, so a failing photo's text can
///   hold another photo's words, and another worker's copy-and-clear can leave it empty ("libvips gave no reason");
/// - with `fail_on=warning`, jpegload fails on the strip *after* the one that warned, so damage in a JPEG's last
///   strip fails nothing; it is only reported when the image closes, by `g_warning("read gave N warnings")` followed
///   by a dump of the whole shared buffer, on whichever thread drops the last reference.
///
/// So attribution is made by exclusion, not by threads or timing. Every rendering of a photo runs inside
/// `attributed`, which holds a readers-writer gate shared, so renderings run in parallel as before, and counts the
/// damage warnings raised anywhere in the process meanwhile. A rendering that failed, or during which any damage
/// warning was raised by anyone, is run again alone: the gate held exclusively, the error buffer cleared first, every
/// warning raised by any thread collected as its own. Nothing else touches libvips then, so the second run's error
/// text and warnings are that photo's and no other's, and they are the ones a run with one worker gives. Good photos
/// pay one uncontended lock; a damaged photo, and those rendered beside it, are rendered twice.
public enum Attribution {
    /// What a rendering met when it was run alone: every libvips and GLib warning, in order.
    public struct Alone: Sendable {
        public var warnings: [String]
    }

    /// Runs `body`, one rendering whose libvips images all end inside it, so that its failure and its damage warnings
    /// are its own.
    ///
    /// `body` may run twice, so it must not have effects outside what it returns. Calls nested inside an attributed
    /// rendering on the same thread run `body` directly, as part of the outer one.
    /// - Returns: `body`'s result, and the warnings of the run alone when it had to be run alone (nil when it was
    ///   not: then no damage warning was raised anywhere while it ran).
    /// - Throws: `body`'s error from the run alone: a `VipsError`'s text is then exactly this rendering's, followed by
    ///   the damage warnings the decoder raised before it failed.
    public static func attributed<T>(_ body: () throws -> T) throws -> (T, Alone?) {
        let thread = CurrentThread.id
        if nested.withLock({ $0.contains(thread) }) { return (try body(), nil) }
        nested.withLock { _ = $0.insert(thread) }
        defer { nested.withLock { _ = $0.remove(thread) } }

        gate.lockShared()
        let before = damageWarnings.load(ordering: .acquiring)
        let first = Result { try body() }
        let clean = damageWarnings.load(ordering: .acquiring) == before
        gate.unlock()
        if clean, case .success(let value) = first { return (value, nil) }

        gate.lockExclusive()
        defer { gate.unlock() }
        _ = Vips.takeErrorBuffer()
        alone.withLock { $0 = [] }
        defer { alone.withLock { $0 = nil } }
        do {
            return (try body(), Alone(warnings: alone.withLock { $0 ?? [] }))
        } catch var error as VipsError {
            // A decoder's own words often arrive as warnings before its failure ("IDAT: CRC error" before libpng's
            // "libpng read error"): the failure carries them.
            let said = alone.withLock { $0 ?? [] }.filter { isDamage($0) && !$0.hasPrefix("read gave") && !error.message.contains($0) }
            if !said.isEmpty { error.message += "\n" + said.joined(separator: "\n") }
            throw error
        }
    }

    /// Whether a warning reports damaged image data (as opposed to harmless metadata quirks such as
    /// "unknown EXIF resolution unit"): libjpeg's words through libvips, and libpng's, which libvips' PNG reader
    /// passes on only as warnings (its own error is "libpng read error"): "not enough data" is what that reader tells
    /// libpng when the file ends before the pixels do; zlib's, when the compressed pixels are damaged.
    public static func isDamage(_ message: String) -> Bool {
        ["read gave", "Corrupt JPEG data", "Premature end", "premature end", "truncated", "invalid distance", "CRC error",
         "not enough data", "image data", "compressed data", "incorrect data check", "bad adaptive filter",
         // zlib's own words, as libpng passes them on for a damaged IDAT stream.
         "incorrect header check", "invalid block type", "invalid stored block", "invalid code", "invalid literal",
         "invalid bit length", "too many length or distance"]
            .contains { message.contains($0) }
    }

    /// Called for every warning libvips or GLib raises, on any thread.
    static func note(_ message: String) {
        if isDamage(message) { damageWarnings.add(1, ordering: .releasing) }
        alone.withLock { collected in
            guard collected != nil else { return }
            collected!.append(message.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }.joined(separator: "; "))
        }
    }

    private static let gate = ReadWriteLock()
    private static let damageWarnings = Atomic<Int>(0)
    /// The warnings of the rendering that runs alone, or nil when none does.
    private static let alone = Mutex<[String]?>(nil)
    /// Threads inside an attributed rendering, so that nested calls do not take the gate again.
    private static let nested = Mutex<Set<UInt>>([])
}
