/// A plain-text table for the terminal: each column as wide as its widest cell, two spaces apart.
///
/// ```
/// var table = TextTable(["id", "status"], rightAligned: [])
/// table.append(["1", "ok"])
/// Console.out(table.rendered)   // "id  status\n1   ok"
/// ```
struct TextTable {
    var header: [String]
    var rows: [[String]] = []
    /// Columns whose cells are padded on the left (numbers).
    var rightAligned: Set<Int>

    init(_ header: [String], rightAligned: Set<Int> = []) {
        self.header = header
        self.rightAligned = rightAligned
    }

    mutating func append(_ row: [String]) { rows.append(row) }

    /// The table as text, the header first.
    var rendered: String { lines.joined(separator: "\n") }

    /// The header's line, then one line per row; the last column is never padded, so lines have no trailing spaces.
    /// Each cell is one line, `shown`: a name or a caption holding a line feed or ESC neither breaks the table nor
    /// reaches the terminal.
    var lines: [String] {
        let all = ([header] + rows).map { $0.map(\.shown) }
        let widths = header.indices.map { column in all.map { $0.indices.contains(column) ? $0[column].count : 0 }.max() ?? 0 }
        return all.map { row in
            row.indices.map { column in
                let cell = row[column]
                if rightAligned.contains(column) { return cell.leftPadded(widths[column]) }
                if column == row.count - 1 { return cell }
                return cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }
    }

    /// `text` cut to `limit` characters, ending with "…" when it was longer; newlines shown as spaces.
    static func clipped(_ text: String, to limit: Int) -> String {
        let flat = text.replacingOccurrences(of: "\n", with: " ")
        return flat.count <= limit ? flat : String(flat.prefix(limit - 1)) + "…"
    }
}
