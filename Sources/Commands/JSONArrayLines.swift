import Core

/// A JSON array written one item at a time, byte for byte what `JSONValue.array(items).prettyText` and
/// `Console.out` write for the whole array, holding only the item before the newest (its `,` waits for the next).
///
/// ```
/// [            ← first item, or "[]" for none
///   {…},
///   {…}
/// ]
/// ```
struct JSONArrayLines {
    private var lines = OutputLines()
    private var previous: String?

    var isOpen: Bool { lines.isOpen }

    mutating func append(_ item: JSONValue) {
        if let previous { lines.append(previous + ",") } else { lines.append("[") }
        previous = "  " + item.prettyText(level: 1)
    }

    /// Closes the array and writes what is pending.
    mutating func finish() {
        if let previous {
            lines.append(previous)
            lines.append("]")
        } else {
            lines.append("[]")
        }
        lines.flush()
    }
}
