import Vips

/// The previews of one photo's card: its current look, and its original look when the card is a before and after
/// pair.
struct CardPreviews<Value: Sendable>: Sendable {
    /// The original look; nil when the card shows one image.
    package var before: Preview<Value>?
    /// The photo's current look (`filter_recipe`).
    package var after: Preview<Value>
    /// The geometry of the cropped thumbnail the card shows, and frames its before alike; nil when the card shows
    /// the whole photo.
    package var crop: ThumbnailGeometry? = nil
}
