import System
import Vips

extension LookRenderer {
    /// Whether every pixel of `original` decodes, with the same damage rules as a rendering (`guarded`: the
    /// decoder's damage warnings fail it under `fail_on`); attributed, so the answer is this photo's alone. A run
    /// asks before it clears a photo's recorded damage (`--retry-damaged`): stages that found their work up to date,
    /// or only recorded a look, decoded nothing, so their success says nothing of the pixels.
    public static func decodes(_ original: FileBytes, failOn: FailOn) -> Bool {
        (try? guarded(failOn: failOn, original: original) { try ImageFormat.decodeEveryPixel(of: original, failOn: failOn) }) != nil
    }

    /// A thumbnail of the look from an original's bytes, from the source its decoder chooses for the box (an
    /// embedded preview or thumbnail when large enough): `thumbnail(of: ImageSource, …)`.
    public static func thumbnail(of bytes: FileBytes, recipe: Recipe, geometry: ThumbnailGeometry, failOn: FailOn,
                                 policy: SourcePolicy = .standard) throws -> Image {
        let source = try ImageFormat.source(bytes, for: DecodeRequest(atLeast: MinimumSize(geometry), policy: policy), failOn: failOn)
        return try thumbnail(of: source.resolved(), recipe: recipe, geometry: geometry, failOn: failOn)
    }

    /// The look at full size (or `maxSize`) from an original's bytes, from the source its decoder chooses:
    /// `fullSize(of: ImageSource, …)`.
    public static func fullSize(of bytes: FileBytes, recipe: Recipe, maxSize: Int?, failOn: FailOn,
                                policy: SourcePolicy = .standard) throws -> Image {
        let request = DecodeRequest(atLeast: maxSize.map { MinimumSize(longEdge: $0) }, policy: policy)
        return try fullSize(of: ImageFormat.source(bytes, for: request, failOn: failOn).resolved(), recipe: recipe, maxSize: maxSize, failOn: failOn)
    }
}
