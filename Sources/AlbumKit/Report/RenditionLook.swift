/// A rendition of a photo with the look its pixels show (a `LookHash`): what a report's preview of that look may be
/// shrunk from instead of the original.
///
/// The look comes from what the catalogue recorded, never from guessing at pixels:
/// - a thumbnail, or an export made from the image, records the look's hash as its input hash;
/// - an export made from a thumbnail records that thumbnail's file hash: its look is that thumbnail's;
/// - a filtered image records the original's hash as its input, and its recipe is the look that the run which
///   wrote it applied with those parameters (`runs.stages`, `AppliedStage.look`); when that run recorded no
///   stages (a catalogue older than `runs.stages`), its look is unknown and it is not used.
public struct RenditionLook: Sendable {
    public var rendition: Rendition
    /// The look's hash: `LookHash.of(original:recipe:)` of the photo and the recipe the pixels have.
    public var look: String

    /// The renditions of `photo` whose look is known. `filterLooks` holds, per run, the look each filter
    /// parameters hash gave (`AppliedStage`).
    static func of(_ renditions: [Rendition], photo: PhotoRecord, filterLooks: [Int64: [String: String]]) -> [RenditionLook] {
        let thumbnailLooks = Dictionary(renditions.filter { $0.kind == .thumbnail }.map { ($0.fileHash, $0.inputHash) },
                                        uniquingKeysWith: { first, _ in first })
        return renditions.compactMap { rendition in
            guard rendition.photo == photo.id else { return nil }
            switch rendition.kind {
            case .thumbnail:
                return RenditionLook(rendition: rendition, look: rendition.inputHash)
            case .export:
                return RenditionLook(rendition: rendition, look: thumbnailLooks[rendition.inputHash] ?? rendition.inputHash)
            case .filtered:
                guard rendition.inputHash == photo.hash,
                      let recipe = filterLooks[rendition.run]?[rendition.parametersHash] else { return nil }
                return RenditionLook(rendition: rendition, look: LookHash.of(original: photo.hash, recipe: recipe))
            }
        }
    }

    /// Per run, the look each of its filter parameters hashes gave, from `runs.stages`.
    static func filterLooks(of runs: [RunRecord]) -> [Int64: [String: String]] {
        var looks: [Int64: [String: String]] = [:]
        for run in runs {
            guard let text = run.stages, let stages = AppliedStage.parse(text) else { continue }
            for applied in stages where applied.stage == .filter {
                if let look = applied.look { looks[run.id, default: [:]][applied.parametersHash] = look }
            }
        }
        return looks
    }
}
