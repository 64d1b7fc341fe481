import Vips

/// One decode of a photo's original that several of its outputs in this run derive from (docs/scheduler.md, "One
/// decode for several outputs").
///
/// The scheduler plans it before a photo's chain, from the outputs that will render in this run (`Scheduler`'s
/// `sharedDecode(for:context:)`): the thumbnails, and the `export from: image` with a `max-size`. The first stage
/// that renders decodes the original look bounded to `maxSize`, the largest export's, and holds it in memory
/// (`LookRenderer.sharedOriginal`); each later output derives from it; it goes when the chain ends.
public struct SharedDecode: Sendable {
    /// The shared image's long edge at most: a `max-size` above this renders alone.
    ///
    /// The shared image is held for the rest of the chain, outside the pixel budget's reservation, one per worker:
    /// 2560 px is at most 2560 × 1707 × 3 bytes (13 MB) for a 3:2 photo, 26 MB for a square one with alpha, against
    /// 4 MB for the common 1440 px preview. Larger exports are closer to full size, where sharing saves little
    /// decoding (JPEG shrink-on-load is at most 2) and holds much more memory.
    public static let longEdgeCap = 2560

    /// The long edge the shared image is bounded to: the largest `max-size` of the exports that share it.
    public let maxSize: Int
    /// The decoded image, once a stage has asked for it.
    package var image: Image?
    /// The sources the stage that decoded it allowed (`SourcePolicy`), and what it was decoded from when not the
    /// original itself (`ImageSource.provenance`): an output whose stage allows other sources renders alone.
    package var policy: SourcePolicy?
    package var source: String?
    /// How many times the original was decoded for it (one, or zero when no stage got to it), and how many outputs
    /// derived from it: the run's `decodes_shared` (docs/events.md).
    public package(set) var decodes = 0
    public package(set) var outputs = 0

    public init(maxSize: Int) { self.maxSize = maxSize }
}
