import Vips
import Core
import Catalogue

/// A rendition of a photo with the look its pixels show (a `LookHash`): what a report's preview of that look may be
/// shrunk from instead of the original.
///
/// The look comes from what the catalogue recorded, never from guessing at pixels:
/// - a thumbnail, or an export made from the image, records the look's hash as its input hash;
/// - an export made from a thumbnail records that thumbnail's file hash: its look is that thumbnail's;
/// - a filtered image records the original's hash as its input, and its recipe is the look that the run which
///   wrote it applied with those parameters (`runs.stages`, `AppliedStage.look`); when that run recorded no
///   stages (a catalogue older than `runs.stages`), its look is unknown and it is not used.
///
/// A thumbnail cropped to its box (`fit: cover`) also carries the geometry it was rendered with, from the
/// parameters its step recorded (`ThumbnailCrops`), so that a card can show that crop and frame its before alike.
public struct RenditionLook: Sendable {
    public var rendition: Rendition
    /// The look's hash: `LookHash.of(original:recipe:)` of the photo and the recipe the pixels have.
    public var look: String
    /// For a `fit: cover` thumbnail, the geometry it was rendered with (its box, its crop); nil for every other
    /// rendition, and for a thumbnail whose step is no longer in the catalogue.
    public var crop: ThumbnailGeometry? = nil

    /// The renditions of `photo` whose look is known. `filterLooks` holds, per run, the look each filter
    /// parameters hash gave (`AppliedStage`); `crops`, the geometry of each cover thumbnail, by its file's hash.
    package static func of(_ renditions: [Rendition], photo: PhotoRecord, filterLooks: [Int64: [String: String]],
                   crops: [String: ThumbnailGeometry] = [:]) -> [RenditionLook] {
        let thumbnailLooks = Dictionary(renditions.filter { $0.kind == .thumbnail }.map { ($0.fileHash, $0.inputHash) },
                                        uniquingKeysWith: { first, _ in first })
        // A filtered look's before (the original look's thumbnail its step made besides, `ThumbnailStage`) has no
        // step of its own: its geometry is that of the thumbnails with its parameters, which the parameters hash says.
        let cropsByParameters = Dictionary(renditions.compactMap { r in
            r.kind == .thumbnail ? crops[r.fileHash].map { (r.parametersHash, $0) } : nil
        }, uniquingKeysWith: { first, _ in first })
        return renditions.compactMap { rendition in
            guard rendition.photo == photo.id else { return nil }
            switch rendition.kind {
            case .thumbnail:
                return RenditionLook(rendition: rendition, look: rendition.inputHash,
                                     crop: crops[rendition.fileHash] ?? cropsByParameters[rendition.parametersHash])
            case .export:
                return RenditionLook(rendition: rendition, look: thumbnailLooks[rendition.inputHash] ?? rendition.inputHash)
            case .filtered:
                guard rendition.inputHash == photo.hash,
                      let recipe = filterLooks[rendition.run]?[rendition.parametersHash] else { return nil }
                return RenditionLook(rendition: rendition, look: LookHash.of(original: photo.hash, recipe: recipe))
            default:
                return nil  // a kind whose look these rules do not know: never a preview (only recorded facts say a look)
            }
        }
    }

    /// The renditions of `photo` in `catalogue` whose look is known, each cover thumbnail with its geometry (read
    /// from the photo's steps only when it has a thumbnail that does not show the whole photo).
    package static func of(photo: PhotoRecord, in catalogue: CatalogueReader, filterLooks: [Int64: [String: String]]) throws -> [RenditionLook] {
        let renditions = try catalogue.renditions(photo: photo.id)
        let cropped = renditions.contains { $0.kind == .thumbnail && !ReportPreviews.showsWholePhoto($0, of: photo) }
        let crops = cropped ? ThumbnailCrops.of(try catalogue.history(photo: photo.id)) : [:]
        return of(renditions, photo: photo, filterLooks: filterLooks, crops: crops)
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
