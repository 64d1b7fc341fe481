import Core

/// The files under import's roots that it never took, counted for the summary, the plan and `run-finished`: so a
/// user sees why their `.bmp` did not arrive, and that album's own exports were not fed back in.
public struct PassedOver: Sendable, Equatable {
    /// Files album derived itself (`DerivedFiles`), never imported.
    public var derived = 0
    /// Files that match no `include` pattern, counted by lowercased extension ("" for none). Hidden files and files
    /// an `exclude` pattern leaves out are not counted: they were left out on purpose.
    public var ignored: [String: Int] = [:]

    public init(derived: Int = 0, ignored: [String: Int] = [:]) {
        self.derived = derived
        self.ignored = ignored
    }

    /// How many files matched no `include` pattern.
    public var ignoredCount: Int { ignored.values.reduce(0, +) }

    /// The extensions, most common first (then by name).
    public var ignoredByCount: [(ext: String, count: Int)] {
        ignored.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// "ignored 29 files that match no include pattern: pdf 4, svg 3, bmp 1 …" (at most eight extensions named),
    /// or nil when there were none.
    public var ignoredSentence: String? {
        guard ignoredCount > 0 else { return nil }
        let sorted = ignoredByCount
        let named = sorted.prefix(8).map { "\($0.ext.isEmpty ? "(no extension)" : $0.ext.shown) \($0.count)" }
        let noun = ignoredCount == 1 ? "file that matches" : "files that match"
        return "ignored \(ignoredCount) \(noun) no include pattern: " + named.joined(separator: ", ")
            + (sorted.count > 8 ? " …" : "")
    }

    /// "skipped 12 files album wrote itself (its catalogue, its exports)", or nil when there were none.
    public var derivedSentence: String? {
        guard derived > 0 else { return nil }
        return "skipped \(derived) \(derived == 1 ? "file" : "files") album wrote itself (its catalogue, its exports)"
    }

    /// The counts as JSON for `run-finished`: `{"derived":n,"ignored":{"pdf":4,…}}`, extensions most common first.
    public var json: JSONValue {
        .object([("derived", .int(derived)), ("ignored", .object(ignoredByCount.map { ($0.ext, .int($0.count)) }))])
    }
}
