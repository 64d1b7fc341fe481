/// One path `album relocate` rewrites: a photo's original (or another name of it, an alias), or a rendition (an
/// export outside the catalogue), from where it was to where it is now. Both paths are absolute, as users see them.
public struct RelocatedPath: Sendable, Equatable {
    /// The photo the path belongs to.
    public var photo: String
    /// The rendition's kind, or nil for the photo's original.
    public var kind: Rendition.Kind?
    public var from: String
    public var to: String
    /// Whether the path is one of the photo's aliases (docs/catalogue.md, "Aliases") rather than its own path.
    public var alias: Bool = false
    /// Whether the path is one of the photo's second originals (a pair's other file, docs/catalogue.md "Pairs").
    public var second: Bool = false
    /// Whether the path is the photo's XMP sidecar (docs/catalogue.md, "XMP sidecars").
    public var sidecar: Bool = false

    /// What the path is, as `album relocate` names it: `original`, `alias`, `second original`, `sidecar`, or the
    /// rendition's kind.
    public var label: String { kind?.rawValue ?? (alias ? "alias" : second ? "second original" : sidecar ? "sidecar" : "original") }
}
