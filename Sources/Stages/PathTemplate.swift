import Foundation
import Core
import YAML
import Catalogue

/// An export path template such as `out/{taken:yyyy}/{name}.jpg`, checked when the job is loaded.
///
/// `{ext}` is the extension of the format the export writes (`OutputFormat.fileExtension`: `jpg`, `png`, `webp`,
/// `avif`, `tif`), `{source-ext}` the original's, as its name has it:
/// ```
/// photo holiday/r001.PNG, format webp:  out/{name}.{ext} → out/r001.webp   out/{source-ext}/{name}.{ext} → out/PNG/r001.webp
/// ```
///
/// The text before the first token's folder is the root; a rendered path always stays under it, because token
/// values can never contain `/`, `..`, NUL or control characters (they are replaced).
public struct PathTemplate: Sendable, Equatable {
    package enum Part: Sendable, Equatable { case text(String), token(Token) }

    package enum Token: String, Sendable, CaseIterable {
        case name, ext, id, hash8, filter, caption
        case sourceExt = "source-ext"
        case takenYear = "taken:yyyy", takenMonth = "taken:MM", takenDay = "taken:dd"
        case addedYear = "added:yyyy", addedMonth = "added:MM", addedDay = "added:dd"
    }

    /// The template as written.
    public let text: String
    /// The folder every rendered path stays under, absolute.
    public let root: String
    /// The root as the export's parameters record it: relative to the job's folder when it lies under it (`out`,
    /// `.`), so a library moved whole with its job, originals and exports renders nothing again; absolute otherwise.
    /// A real change of destination still changes it (another folder outside the job's, or another `to:`).
    public let recordedRoot: String
    /// The template as the export's parameters record it: as written, except that an absolute one under the job's
    /// folder (`to: "${OUT}/{name}.jpg"` with `OUT` inside the library) loses that folder (`site/{name}.jpg`), for
    /// the same reason as `recordedRoot`.
    public let recordedText: String
    package let parts: [Part]

    /// Parses `text`, resolving relative paths against `base`.
    /// - Throws: `StageError` naming an unknown or unclosed token and listing the valid ones.
    public init(_ text: String, relativeTo base: String) throws {
        self.text = text
        var parts: [Part] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            if open > rest.startIndex { parts.append(.text(String(rest[..<open]))) }
            guard let close = rest[open...].firstIndex(of: "}") else {
                throw StageError("the token starting at '\(rest[open...])' is not closed with '}'")
            }
            let name = String(rest[rest.index(after: open)..<close])
            guard let token = Token(rawValue: name) else {
                let valid = Token.allCases.map { "{\($0.rawValue)}" }.joined(separator: ", ")
                let near = Suggest.nearest(to: name, in: Token.allCases.map(\.rawValue)).map { "; did you mean {\($0)}?" } ?? ""
                throw StageError("unknown token {\(name)}\(near)\(near.isEmpty ? ";" : "") valid tokens are \(valid)")
            }
            parts.append(.token(token))
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty { parts.append(.text(String(rest))) }
        guard parts.contains(where: { if case .token = $0 { true } else { false } }) else {
            throw StageError("the path has no token, so every photo would be written to the same file; add {name} or {id}")
        }
        // The root is the folder part of the leading text; what follows it is rendered per photo.
        var lead = ""
        if case .text(let text) = parts.first, let slash = text.lastIndex(of: "/") {
            lead = String(text[...slash])
            parts[0] = .text(String(text[text.index(after: slash)...]))
        }
        let root = Paths.absolute(lead.isEmpty ? "." : lead, relativeTo: base)
        self.root = root
        let folder = Paths.normalised(Paths.absolute(base))
        if root == folder {
            recordedRoot = "."
        } else if root.hasPrefix(folder == "/" ? "/" : folder + "/") {
            recordedRoot = String(root.dropFirst(folder == "/" ? 1 : folder.count + 1))
        } else {
            recordedRoot = root
        }
        let inFolder = folder == "/" ? "/" : folder + "/"
        recordedText = text.hasPrefix("/") && recordedRoot != root && text.hasPrefix(inFolder) ? String(text.dropFirst(inFolder.count)) : text
        self.parts = parts
        if let escape = fixedEscape() { throw StageError(escape) }
    }

    /// Why the template's own text takes every rendered path out of `root` (a fixed `..` climbing above it, or
    /// ending at the folder itself), or nil. Token values are one safe path component each (`safe`: never `/`,
    /// `.` or `..`), so only the fixed text can climb, and it does the same for every photo: each token counts as
    /// one plain component here.
    ///
    /// ```
    /// out/{name}/../{id}.jpg        → nil (out/ID.jpg: still under out/)
    /// out/{name}/../../x/{id}.jpg   → the second ".." climbs out of out/
    /// ```
    func fixedEscape() -> String? {
        var relative = ""
        for part in parts {
            if case .text(let text) = part { relative += text } else { relative += "t" }
        }
        var depth = 0
        for component in relative.split(separator: "/", omittingEmptySubsequences: true) where component != "." {
            guard component == ".." else { depth += 1; continue }
            depth -= 1
            if depth < 0 {
                return "its fixed '..' leads outside its folder \(root) for every photo; a rendered path must stay under "
                    + "the folder before the first token: write that folder there (\"out/x/{id}.jpg\")"
            }
        }
        if depth == 0 { return "its fixed '..' leads back to its folder \(root) itself, not to a file under it" }
        return nil
    }

    /// Whether the template uses `{ext}`, whose meaning changed from the original's extension to the written
    /// format's: such a template's recorded parameters say so (`StageOption.parameters`).
    public var usesFormatExtension: Bool { parts.contains(.token(.ext)) }

    /// The absolute path for `photo`, written as `formatExtension` (`{ext}`, e.g. `jpg`).
    /// - Throws: `StageError` when the template's own text (e.g. `..`) would lead outside its root.
    public func render(_ photo: PhotoRecord, formatExtension: String) throws -> String {
        var relative = ""
        for part in parts {
            switch part {
            case .text(let text): relative += text
            case .token(.ext): relative += PathTemplate.safe(formatExtension)
            case .token(let token): relative += PathTemplate.safe(value(token, photo))
            }
        }
        let full = Paths.normalised(root + "/" + relative)
        guard full.hasPrefix(root == "/" ? "/" : root + "/"), full != root else {
            throw StageError("the export path \(text) leads outside its folder \(root) for this photo")
        }
        return full
    }

    package func value(_ token: Token, _ photo: PhotoRecord) -> String {
        let file = (photo.path as NSString).lastPathComponent
        switch token {
        case .name: return (file as NSString).deletingPathExtension
        case .ext, .sourceExt: return (file as NSString).pathExtension
        case .id: return photo.id
        case .hash8: return String(photo.hash.prefix(8))
        case .filter: return photo.filter
        case .caption: return PathTemplate.slug(photo.caption ?? "")
        case .takenYear: return photo.taken.map { String($0.prefix(4)) } ?? "undated"
        case .takenMonth: return photo.taken.map { String($0.dropFirst(5).prefix(2)) } ?? "undated"
        case .takenDay: return photo.taken.map { String($0.dropFirst(8).prefix(2)) } ?? "undated"
        case .addedYear: return String(photo.added.prefix(4))
        case .addedMonth: return String(photo.added.dropFirst(5).prefix(2))
        case .addedDay: return String(photo.added.dropFirst(8).prefix(2))
        }
    }

    /// A token value made safe for one path component: no separators, no NUL or control characters, never `.`/`..`.
    static func safe(_ value: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in value.unicodeScalars {
            if scalar == "/" || scalar == "\\" { scalars.append("-") }
            else if scalar.value < 0x20 || scalar.value == 0x7f || (0x80..<0xa0).contains(scalar.value) { scalars.append("_") }
            else { scalars.append(scalar) }
        }
        let text = String(scalars)
        if text.isEmpty { return "_" }
        if text.allSatisfy({ $0 == "." }) { return String(repeating: "_", count: text.count) }
        return text
    }

    /// Lower-case words joined by dashes, at most 60 characters: "A Day at the Sea!" → "a-day-at-the-sea".
    package static func slug(_ text: String) -> String {
        let words = text.lowercased().components(separatedBy: CharacterSet.alphanumerics.inverted).filter { !$0.isEmpty }
        let joined = String(words.joined(separator: "-").prefix(60))
        return joined.isEmpty ? "untitled" : joined
    }
}
