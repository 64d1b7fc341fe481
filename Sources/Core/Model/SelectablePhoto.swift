/// What a `Selection` reads of a photo: the keys `select:` and `album ls` match on.
///
/// The catalogue's `PhotoRecord` is one (`PhotoRecord+SelectablePhoto.swift`); the protocol keeps `Selection`, like
/// the rest of `Model/`, from depending on the layers that use it.
public protocol SelectablePhoto {
    /// The photo's id, which `missing` and `failed` look up in `SelectionFacts`.
    var id: String { get }
    /// The original's absolute path, for `path`.
    var path: String { get }
    /// The detected format, lowercase, for `format`.
    var format: String { get }
    /// Capture time, ISO-8601, nil when undated, for `taken`.
    var taken: String? { get }
    /// Import time, ISO-8601, for `added`.
    var added: String { get }
    var caption: String? { get }
    /// The applied preset's name ("none" for the original look), for `filter`.
    var filter: String { get }
    var camera: String? { get }
    /// XMP's rating (−1…5), label and keywords, for `rating`, `label` and `keywords`.
    var rating: Int? { get }
    var label: String? { get }
    var keywords: [String] { get }
}
