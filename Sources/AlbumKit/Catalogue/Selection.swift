import Foundation

/// Which catalogue photos a job's stages work on: every given key must match (they are ANDed).
/// The same keys are `album ls` flags.
public struct Selection: Sendable, Equatable {
    /// Capture day within the range; undated photos never match.
    public var taken: DateRange?
    /// Import day within the range.
    public var added: DateRange?
    /// The applied preset's name ("none" for the original look).
    public var filter: String?
    /// A glob on the original's path (`*` and `?` do not cross `/`; `**` does not exist: use `*/…`).
    public var path: String?
    /// The caption contains this text, ignoring case.
    public var caption: String?
    /// The camera contains this text, ignoring case.
    public var camera: String?
    /// The detected format, e.g. "jpeg".
    public var format: String?

    public init(taken: DateRange? = nil, added: DateRange? = nil, filter: String? = nil, path: String? = nil,
                caption: String? = nil, camera: String? = nil, format: String? = nil) {
        self.taken = taken
        self.added = added
        self.filter = filter
        self.path = path
        self.caption = caption
        self.camera = camera
        self.format = format
    }

    /// Whether nothing narrows the selection.
    public var isEmpty: Bool { self == Selection() }

    /// Whether `photo` is selected.
    public func matches(_ photo: PhotoRecord) -> Bool {
        if let taken, !taken.contains(photo.taken) { return false }
        if let added, !added.contains(photo.added) { return false }
        if let filter, photo.filter != filter { return false }
        if let path, fnmatch(path, photo.path, FNM_PATHNAME) != 0 { return false }
        if let caption, !(photo.caption ?? "").localizedCaseInsensitiveContains(caption) { return false }
        if let camera, !(photo.camera ?? "").localizedCaseInsensitiveContains(camera) { return false }
        if let format, photo.format != format.lowercased() { return false }
        return true
    }

    /// The keys that are set, as `key: value` text, for plans and messages.
    public var summary: String {
        var parts: [String] = []
        if let taken { parts.append("taken \(taken)") }
        if let added { parts.append("added \(added)") }
        if let filter { parts.append("filter \(filter)") }
        if let path { parts.append("path \(path)") }
        if let caption { parts.append("caption ~ \(caption)") }
        if let camera { parts.append("camera ~ \(camera)") }
        if let format { parts.append("format \(format)") }
        return parts.isEmpty ? "all photos" : parts.joined(separator: ", ")
    }

    /// The canonical JSON of the selection, for a stage's parameters.
    public var canonical: JSONValue {
        .object([("taken", .string(taken?.description)), ("added", .string(added?.description)),
                 ("filter", .string(filter)), ("path", .string(path)), ("caption", .string(caption)),
                 ("camera", .string(camera)), ("format", .string(format))].filter { $0.1 != .null })
    }
}
