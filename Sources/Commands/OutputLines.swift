import Core

/// Lines for stdout written as they come, in blocks of about 64 KB: a command that lists the catalogue row by row
/// holds one block, never its whole output (issue 34). The bytes are `Console.out`'s, line for line.
///
/// ```
/// var lines = OutputLines()
/// lines.append(photo.id)     // once per row
/// lines.flush()
/// ```
struct OutputLines {
    private var pending = ""
    static let blockBytes = 1 << 16

    /// Whether stdout still takes lines: false once its reader went away (`album ls | head -3`), when the caller
    /// stops reading rows.
    var isOpen: Bool { Console.failure(of: .standardOutput) == nil }

    mutating func append(_ line: String) {
        if !pending.isEmpty { pending += "\n" }
        pending += line
        if pending.utf8.count >= OutputLines.blockBytes { flush() }
    }

    /// Writes what is pending (nothing when nothing is).
    mutating func flush() {
        guard !pending.isEmpty else { return }
        Console.out(pending)
        pending = ""
    }
}
