import Catalogue

/// One preview of a look in a report, and where it came from: a rendition's file, or the original.
struct Preview<Value: Sendable>: Sendable {
    package var value: Value
    /// The kind of rendition it was shrunk from; nil when it was rendered from the original.
    package var from: Rendition.Kind?

    /// `thumbnail`, `filtered`, `export` or `original`: the page's `data-from` attribute.
    package var source: String { from?.rawValue ?? "original" }
}
