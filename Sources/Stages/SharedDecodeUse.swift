/// How a stage's output may derive from the photo's one shared decode (`SharedDecode`), which the scheduler plans
/// from these: a decode is shared when at least one output is `bounded` within `SharedDecode.longEdgeCap` and two
/// outputs in all will render.
public enum SharedDecodeUse: Sendable, Equatable {
    /// A small output made from whatever the shared image is (a thumbnail).
    case any
    /// An output whose long edge is at most this many pixels (an `export from: image` with a `max-size`): the
    /// shared image is bounded to the largest of these.
    case bounded(Int)
}
