/// One preview of a look in a report, and where it came from: a rendition's file, or the original.
struct Preview<Value: Sendable>: Sendable {
    var value: Value
    /// The kind of rendition it was shrunk from; nil when it was rendered from the original.
    var from: Rendition.Kind?

    /// `thumbnail`, `filtered`, `export` or `original`: the page's `data-from` attribute.
    var source: String { from?.rawValue ?? "original" }
}
