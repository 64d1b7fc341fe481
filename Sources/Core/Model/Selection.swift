import Foundation
import System

/// Which catalogue photos a job's stages work on: every given key must match (they are ANDed).
/// The same keys are `album ls` flags.
///
/// `missing` and `failed` depend on other rows than the photo's: `Selection.resolved(in:)` fills `facts` before
/// `matches` is called.
public struct Selection: Sendable, Equatable {
    /// The renditions `missing:` can ask for.
    public enum Missing: String, Sendable, CaseIterable { case thumbnail, export }
    /// The runs `failed:` can name.
    public enum Failed: String, Sendable, CaseIterable {
        /// The newest run of a job (`album run`), not counting the one being started.
        case lastRun = "last-run"
    }

    /// Capture day within the range; undated photos never match.
    public var taken: DateRange?
    /// Import day within the range.
    public var added: DateRange?
    /// The applied preset's name ("none" for the original look).
    public var filter: String?
    /// A glob on the original's path, absolute (`Selection.pathPattern(_:relativeTo:)`): `*`, `?` and `[…]` within
    /// one folder's name, `**` for any folders.
    public var path: String?
    /// Where `path` was written, for messages: the pattern as written and, from a job file, `file:line:col`.
    public var pathSource: PatternSource?
    /// The caption contains this text, ignoring case.
    public var caption: String?
    /// The camera contains this text, ignoring case.
    public var camera: String?
    /// The detected format, e.g. "jpeg".
    public var format: String?
    /// A photo or a video (its format's kind).
    public var kind: KindSelection?
    /// The XMP rating compared (`>= 4`); an unrated photo counts as 0.
    public var rating: RatingComparison?
    /// The XMP label, ignoring case ("red" selects "Red").
    public var label: String?
    /// XMP keywords the photo has, every one of them (`Selection.hasKeyword`).
    public var keywords: [String]?
    /// The photo has no rendition of this kind whose file is still there.
    public var missing: Missing?
    /// The photo has a failed step in this run.
    public var failed: Failed?
    /// The ids `missing` and `failed` need, from `Selection.resolved(in:)`; nil until resolved.
    public var facts: SelectionFacts?

    public init(taken: DateRange? = nil, added: DateRange? = nil, filter: String? = nil, path: String? = nil,
                caption: String? = nil, camera: String? = nil, format: String? = nil, missing: Missing? = nil,
                failed: Failed? = nil, rating: RatingComparison? = nil, label: String? = nil, keywords: [String]? = nil) {
        self.rating = rating
        self.label = label
        self.keywords = keywords
        self.taken = taken
        self.added = added
        self.filter = filter
        self.path = path
        self.caption = caption
        self.camera = camera
        self.format = format
        self.missing = missing
        self.failed = failed
    }

    /// Whether matching needs `facts` from the catalogue.
    public var needsCatalogue: Bool { missing != nil || failed != nil }

    /// Whether nothing narrows the selection.
    public var isEmpty: Bool { self == Selection() }

    /// A path glob as written, made the absolute pattern `path` holds, by the shell's rules with `**`:
    /// a pattern with no `/` matches a file's name in any folder (as in `.gitignore`), any other is a path
    /// relative to `base` (the job file's folder, or the current folder on the command line) unless absolute.
    ///
    /// ```
    /// Selection.pathPattern("*r00[1-4]*", relativeTo: "/jobs")        // "/**/*r00[1-4]*"
    /// Selection.pathPattern("photos/**/*.jpg", relativeTo: "/jobs")   // "/jobs/photos/**/*.jpg"
    /// Selection.pathPattern("../photos/*.jpg", relativeTo: "/jobs")   // "/photos/*.jpg"
    /// ```
    public static func pathPattern(_ written: String, relativeTo base: String? = nil) -> String {
        if !written.contains("/"), written != "~" { return "/**/" + written }
        return Paths.absolute(written, relativeTo: base)
    }

    /// The warning when the path glob matches none of `paths` (the photos a job or `ls` looks at), else nil:
    /// a pattern that selects nothing is said, never silent.
    ///
    /// ```
    /// album: warning: jobs/pick.yml:4:18: select.path '*r00[1-4]' matches no photo's path (matched as /**/*r00[1-4])
    /// ```
    public func unmatchedPathWarning(among paths: some Sequence<String>) -> String? {
        guard let path else { return nil }
        let glob = Glob(path, pathname: true)
        if paths.contains(where: { glob.matches($0) }) { return nil }
        let place = pathSource?.location.map { "\($0): " } ?? ""
        let key = pathSource?.key ?? "path"
        let written = pathSource?.written ?? path
        let resolved = written == path ? "" : " (matched as \(path))"
        return "album: warning: \(place)\(key) '\(written)' matches no photo's path\(resolved)"
    }

    /// Whether `photo` is selected.
    public func matches(_ photo: some SelectablePhoto) -> Bool {
        if let taken, !taken.contains(photo.taken) { return false }
        // The import day where the user is (`TZ`), as `ls` shows it: album stores the time in UTC.
        if let added, !added.contains(Timestamp.local(photo.added)) { return false }
        if let filter, photo.filter != filter { return false }
        if let path, !Glob(path, pathname: true).matches(photo.path) { return false }
        if let caption, !(photo.caption ?? "").localizedCaseInsensitiveContains(caption) { return false }
        if let camera, !(photo.camera ?? "").localizedCaseInsensitiveContains(camera) { return false }
        if let format, photo.format != format.lowercased() { return false }
        if let kind, !kind.matches(format: photo.format) { return false }
        if let rating, !rating.matches(photo.rating) { return false }
        if let label, photo.label?.lowercased() != label.lowercased() { return false }
        if let keywords, !keywords.allSatisfy({ Selection.hasKeyword($0, among: photo.keywords) }) { return false }
        if needsCatalogue {
            guard let facts else {
                // A programmer error, not a user's: every caller resolves a selection with the catalogue first.
                preconditionFailure("selection '\(summary)' was matched before Selection.resolved(in:)")
            }
            if missing != nil, facts.having.contains(photo.id) { return false }
            if failed != nil, !facts.failed.contains(photo.id) { return false }
        }
        return true
    }

    /// Whether `keyword` is among a photo's keywords, ignoring case: one of them, or a level of a hierarchical one
    /// ("Paris" and "Europe" are in "Places|Europe|Paris"), or a path that starts one ("Places|Europe").
    public static func hasKeyword(_ keyword: String, among keywords: [String]) -> Bool {
        let wanted = keyword.lowercased()
        return keywords.contains { written in
            let have = written.lowercased()
            return have == wanted || have.hasPrefix(wanted + "|") || have.split(separator: "|").contains { $0 == wanted }
        }
    }

    /// The keys that are set, as `key: value` text, for plans and messages.
    public var summary: String {
        var parts: [String] = []
        if let taken { parts.append("taken \(taken)") }
        if let added { parts.append("added \(added)") }
        if let filter { parts.append("filter \(filter)") }
        if let path { parts.append("path \(pathSource?.written ?? path)") }
        if let caption { parts.append("caption ~ \(caption)") }
        if let camera { parts.append("camera ~ \(camera)") }
        if let format { parts.append("format \(format)") }
        if let kind { parts.append("kind \(kind.kind.rawValue)") }
        if let rating { parts.append("rating \(rating)") }
        if let label { parts.append("label \(label)") }
        if let keywords { parts.append("keywords \(keywords.joined(separator: ", "))") }
        if let missing { parts.append("missing \(missing.rawValue)") }
        if let failed { parts.append("failed \(failed.rawValue)") }
        return parts.isEmpty ? "all photos" : parts.joined(separator: ", ")
    }

    /// The canonical JSON of the selection, for a stage's parameters.
    public var canonical: JSONValue {
        .object([("taken", .string(taken?.description)), ("added", .string(added?.description)),
                 ("filter", .string(filter)), ("path", .string(path)), ("caption", .string(caption)),
                 ("camera", .string(camera)), ("format", .string(format)), ("kind", .string(kind?.kind.rawValue)),
                 ("missing", .string(missing?.rawValue)), ("failed", .string(failed?.rawValue)),
                 ("rating", .string(rating?.description)), ("label", .string(label)),
                 ("keywords", keywords.map { .array($0.map { .string($0) }) } ?? .null)].filter { $0.1 != .null })
    }
}

/// Where a selection's path glob came from, for the warning when it matches no photo.
public struct PatternSource: Sendable, Equatable {
    /// The pattern as the user wrote it, before it was made absolute.
    public var written: String
    /// What set it: `select.path`, `export.select.path`, `--path`.
    public var key: String
    /// `file:line:col` in the job file; nil on the command line.
    public var location: String?

    public init(written: String, key: String, location: String? = nil) {
        self.written = written
        self.key = key
        self.location = location
    }
}
