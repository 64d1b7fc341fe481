import Foundation
import Synchronization

/// Collects the libvips warnings raised on the calling thread while `body` runs.
///
/// libvips 8.14's `fail_on` misses some damage: a JPEG whose entropy data ends early ("Corrupt JPEG data: premature
/// end of data segment") can decode "successfully" into grey, the loader only warning "read gave 1 warnings" when
/// the image is closed. That warning is raised on the thread that drops the image's last reference, so a pipeline
/// built, evaluated and released inside `body` reports it here, where it can be turned into the photo's failure.
/// Warnings raised on libvips' own worker threads are not attributed (they still reach `Vips.setWarningHandler`).
public enum WarningCapture {
    private static let active = Mutex<[UInt: [String]]>([:])

    /// Runs `body` and returns its result with the warnings raised on this thread meanwhile.
    public static func collecting<T>(_ body: () throws -> T) rethrows -> (T, [String]) {
        let thread = UInt(bitPattern: Int(bitPattern: pthread_self()))
        active.withLock { $0[thread] = [] }
        defer { active.withLock { _ = $0.removeValue(forKey: thread) } }
        let result = try body()
        return (result, active.withLock { $0[thread] ?? [] })
    }

    static func note(_ message: String) {
        let message = message.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "\n", with: "; ")
        let thread = UInt(bitPattern: Int(bitPattern: pthread_self()))
        active.withLock { if $0[thread] != nil { $0[thread]!.append(message) } }
    }

    /// Whether a warning reports damaged image data (as opposed to harmless metadata quirks such as
    /// "unknown EXIF resolution unit").
    public static func isDamage(_ message: String) -> Bool {
        ["read gave", "Corrupt JPEG data", "Premature end", "premature end", "truncated", "invalid distance", "CRC error"]
            .contains { message.contains($0) }
    }
}
