import Foundation

/// The rows of a Markdown table in one of docs/*.md, read so that tests can check the docs against the declared
/// filter specs and stage option tables.
struct DocsTable {
    /// Each row's cells, trimmed, without the header and the `|---|` line.
    let rows: [[String]]

    /// The table whose header starts with `header` (e.g. "| option |"), in the section that starts with the line
    /// `section` (e.g. "### import"), up to the next heading of that level or above.
    init(doc: String, section: String? = nil, header: String) throws {
        let text = try String(contentsOfFile: DocsTable.path(doc), encoding: .utf8)
        var lines = text.components(separatedBy: "\n")[...]
        if let section {
            guard let start = lines.firstIndex(of: section) else { throw DocsError("\(doc) has no line '\(section)'") }
            let level = section.prefix { $0 == "#" }
            lines = lines[(start + 1)...]
            if let end = lines.firstIndex(where: { $0.hasPrefix("#") && $0.prefix(while: { $0 == "#" }).count <= level.count }) {
                lines = lines[..<end]
            }
        }
        guard let top = lines.firstIndex(where: { $0.hasPrefix(header) }) else { throw DocsError("\(doc) has no table '\(header)'") }
        rows = lines[(top + 2)...].prefix { $0.hasPrefix("|") }.map { line in
            line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                .map { $0.trimmingCharacters(in: .whitespaces) }
        }
    }

    /// The path of docs/`doc` in this checkout.
    static func path(_ doc: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/\(doc)").path
    }

    /// The row whose first cell is `` `key` ``.
    func row(_ key: String) -> [String]? { rows.first { $0.first == "`\(key)`" } }

    /// The first cells, backticks removed.
    var keys: [String] { rows.map { $0[0].replacingOccurrences(of: "`", with: "") } }

    struct DocsError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
