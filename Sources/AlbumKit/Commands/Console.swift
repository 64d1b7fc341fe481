import Foundation
import Synchronization

/// Where album's words go: results on stdout, messages on stderr. Lines are written whole, from any thread.
public enum Console {
    private static let lock = Mutex<Void>(())

    public static func out(_ text: String) { write(text + "\n", to: FileHandle.standardOutput) }
    public static func err(_ text: String) { write(text + "\n", to: FileHandle.standardError) }

    /// Text as it is, with no newline added (the progress line).
    public static func raw(_ text: String, toStandardError: Bool) {
        write(text, to: toStandardError ? FileHandle.standardError : FileHandle.standardOutput)
    }

    /// `album: error: …` on stderr.
    public static func error(_ text: String) { err("album: error: \(text)") }

    private static func write(_ text: String, to handle: FileHandle) {
        lock.withLock { _ in handle.write(Data(text.utf8)) }
    }
}
