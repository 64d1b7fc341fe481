import Core
import YAML
import Media

extension JobBuilder {
    static let selectKeys = ["taken", "added", "filter", "path", "caption", "camera", "format", "kind", "rating", "label",
                             "keywords", "missing", "failed"]

    /// Reads a `select:` mapping (the job's, or a stage's own).
    mutating func readSelection(_ node: Node, _ what: String) -> Selection? {
        guard let entries = reader.mapping(node, what) else { return nil }
        reader.checkKeys(entries, allowed: JobBuilder.selectKeys, in: what)
        var selection = Selection()
        for (key, _, value) in entries {
            switch key {
            case "taken", "added":
                // A year alone (`taken: 2008`) is a number to YAML: read it as written.
                let written = value.intValue != nil ? reader.writtenText(of: value) : nil
                guard let text = written ?? reader.string(value, "\(what).\(key) (a day like 2024-06-01, a month 2024-06, a year 2024, or a range like 2024-06-01..2024-08-31)") else { continue }
                do {
                    let range = try DateRange(parsing: text)
                    if key == "taken" { selection.taken = range } else { selection.added = range }
                } catch {
                    reader.error(value, JobBuilder.badRange("\(what).\(key)", error))
                }
            case "filter": selection.filter = reader.string(value, "\(what).filter")
            case "path":
                guard let written = reader.string(value, "\(what).path") else { continue }
                if written.isEmpty { reader.error(value, JobBuilder.emptyPath("\(what).path")) }
                selection.path = Selection.pathPattern(written, relativeTo: folder)
                let location = value.location
                selection.pathSource = PatternSource(written: written, key: "\(what).path", location: "\(reader.file):\(location.line):\(location.column)")
            case "caption": selection.caption = reader.string(value, "\(what).caption")
            case "camera": selection.camera = reader.string(value, "\(what).camera")
            case "format": selection.format = reader.choice(value, "\(what).format", ImageFormat.self)?.rawValue
            case "kind": selection.kind = reader.choice(value, "\(what).kind", MediaKind.self).map(ImageFormat.selecting)
            case "rating":
                // `rating: 5` is a number to YAML, `rating: ">= 4"` a string: both as written.
                // (Written as an if, not one conditional expression: Swift 6.3's optimizer crashed on that form.)
                let text: String?
                if let number = value.intValue {
                    text = reader.writtenText(of: value) ?? String(number)
                } else {
                    text = reader.string(value, "\(what).rating (a comparison like \">= 4\", or a rating from -1 to 5)")
                }
                guard let text else { continue }
                do { selection.rating = try RatingComparison(parsing: text) } catch {
                    reader.error(value, JobBuilder.badRating("\(what).rating", error))
                }
            case "label":
                guard let label = reader.string(value, "\(what).label") else { continue }
                if label.isEmpty { reader.error(value, "\(what).label is empty; write a label such as Red") } else { selection.label = label }
            case "keywords":
                guard let keywords = reader.strings(value, "\(what).keywords") else { continue }
                if keywords.isEmpty || keywords.contains(where: \.isEmpty) {
                    reader.error(value, "\(what).keywords holds an empty keyword; write keywords such as [beach, Places|Europe]")
                } else {
                    selection.keywords = keywords
                }
            case "missing": selection.missing = reader.choice(value, "\(what).missing", Selection.Missing.self)
            case "failed": selection.failed = reader.choice(value, "\(what).failed", Selection.Failed.self)
            default: break
            }
        }
        return selection
    }

    /// `select.taken: '2008-13' is not a date: …`: the words of a malformed date range, the job file's and `album ls`'s.
    package static func badRange(_ what: String, _ error: any Error) -> String { "\(what): \(error)" }

    /// `select.rating: '>> 4' is not a rating comparison: …`: the words of a malformed rating, the job file's and
    /// `album ls --rating`'s.
    package static func badRating(_ what: String, _ error: any Error) -> String { "\(what): \(error)" }

    /// `select.path is empty; write a glob …`: the words of an empty path glob, the job file's and `album ls --path`'s.
    package static func emptyPath(_ what: String) -> String {
        "\(what) is empty; write a glob such as \"photos/**/*.jpg\" or \"*r00[1-4]*\""
    }
}
