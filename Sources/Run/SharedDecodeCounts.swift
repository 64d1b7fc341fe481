import Core
import Media

/// What a run's shared decodes did (`RunSummary.sharedDecodes`, the `run-finished` event's `decodes_shared`).
public struct SharedDecodeCounts: Sendable, Equatable {
    /// Decodes of an original made for several outputs: one per photo whose outputs shared one.
    public var photos = 0
    /// Outputs (thumbnails, exports) derived from those decodes.
    public var outputs = 0

    /// Adds one photo's shared decode, when a stage decoded it.
    package mutating func add(_ shared: SharedDecode) {
        photos += shared.decodes
        outputs += shared.outputs
    }

    /// `{"photos":n,"outputs":n}`.
    public var json: JSONValue { .object([("photos", .int(photos)), ("outputs", .int(outputs))]) }
}
