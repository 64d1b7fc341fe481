import Core

/// A rendition as JSON: the one encoding `album show --json` (its `renditions`) and `album ls --json --renditions`
/// (each photo's `renditions`) print. docs/json.md, "rendition", lists the fields.
extension Rendition {
    /// `{"kind", "path", "file_hash", "width", "height", "bytes", "params_hash", "input_hash", "run"}`; `path` is absolute.
    public var json: JSONValue {
        .object(columnJSON)
    }
}
