import System
import Vips
import Catalogue
import Media
import Stages
import Run

/// How a report gets its previews: from the renditions the runs made where one fits, from the original only
/// where none does, a few photos at a time (docs/report.md, "Where previews come from").
///
/// A rendition fits a look's preview when it shows that look (`RenditionLook`), shows the whole photo (its aspect
/// within a pixel of the photo's upright size), and is at least as large as the preview. When no whole-photo
/// rendition of the current look is intact, a cropped (`fit: cover`) thumbnail of it fits too, if it fills the
/// preview's box on one side: the card then shows the crop as the run made it, and its "before" is framed alike,
/// from a thumbnail of the original look with the same geometry, else from the original rendered with that
/// geometry. A whole-photo "after" pairs with a whole-photo "before". A rendition is used only when its file is
/// still the recorded one (regular, the recorded size and SHA-256: the bytes are read to be shrunk anyway, and
/// hashing them costs less than decoding them); otherwise the next fitting rendition is tried, then the original.
/// The smallest fitting rendition is tried first: the least to read and decode.
enum ReportPreviews {
    /// Photos rendered at once: the report's own work, beside whatever else the machine runs.
    package static let workers = 2

    /// Each card's previews in `geometry` (a box, uncropped, never enlarged), in the photos' order, each finished by
    /// `finish` (encoded, or kept as pixels) on the thread that rendered it; a card that cannot be made at all is
    /// its error. `crops`: whether a card may show a cropped thumbnail (the page's cards; not the contact sheet's
    /// cells, which keep the whole photo).
    /// `asIs`: what a rendition whose file a page may show as it is becomes, with the size it is shown at
    /// (`AsIs`); nil: every preview is finished from its pixels.
    static func cards<Value: Sendable>(for photos: [RunReport.Photo], geometry: ThumbnailGeometry, catalogueFolder: String,
                                       crops: Bool = true, asIs: AsIs<Value>? = nil,
                                       finish: @escaping @Sendable (LookRenderer.PreviewImage) throws -> Value)
        -> [Result<CardPreviews<Value>, any Error>] {
        ParallelMap.map(photos, workers: workers) { photo in
            Result { try card(for: photo, geometry: geometry, catalogueFolder: catalogueFolder, crops: crops, asIs: asIs, finish: finish) }
        }
    }

    /// A rendition's file shown as it is, scaled by the page into the preview's size, instead of shrunk and encoded
    /// again (`LookRenderer.shownAsIs`): `limit`, how much larger than that size the file may be; `make`, the value
    /// from the file's bytes and the size it is shown at.
    struct AsIs<Value>: Sendable {
        var limit: Double
        var make: @Sendable (_ bytes: FileBytes, _ width: Int, _ height: Int) -> Value
    }

    /// One card: the current look from its smallest intact fitting rendition (the whole photo, else, with `crops`,
    /// a cover thumbnail), the original look in the same frame, and the looks no rendition gives from one decode
    /// of the original in that frame.
    static func card<Value: Sendable>(for photo: RunReport.Photo, geometry: ThumbnailGeometry, catalogueFolder: String,
                                      crops: Bool = true, asIs: AsIs<Value>? = nil,
                                      finish: (LookRenderer.PreviewImage) throws -> Value) throws -> CardPreviews<Value> {
        let record = photo.record
        // The current look, then (for a pair) the original look.
        var looks: [(hash: String, recipe: Recipe?)] = [(record.lookHash, nil)]
        if photo.filtered { looks.append((record.hash, .original)) }
        var shown: [Preview<Value>?] = looks.map { _ in nil }
        let box = size(of: record, in: geometry)
        let whole = ThumbnailGeometry(width: box.width, height: box.height, crop: .none, sizing: .down)
        var frame: ThumbnailGeometry? = nil
        shown[0] = first(fitting(photo.renditions, look: looks[0].hash, record: record, box: box), box: whole, asIs: asIs, finish: finish)
        if shown[0] == nil, crops {
            for candidate in cropped(photo.renditions, look: looks[0].hash, record: record, geometry: geometry) {
                guard let crop = candidate.crop, let preview = first([candidate], box: within(crop, geometry: geometry), asIs: asIs, finish: finish)
                else { continue }
                (shown[0], frame) = (preview, crop)
                break
            }
        }
        if looks.count > 1 {
            if let frame {
                let alike = cropped(photo.renditions, look: looks[1].hash, record: record, geometry: geometry).filter { $0.crop == frame }
                shown[1] = first(alike, box: within(frame, geometry: geometry), asIs: asIs, finish: finish)
            } else {
                shown[1] = first(fitting(photo.renditions, look: looks[1].hash, record: record, box: box), box: whole, asIs: asIs, finish: finish)
            }
        }
        let missing = shown.indices.filter { shown[$0] == nil }
        if !missing.isEmpty {
            let recipes = try missing.map { index in try looks[index].recipe ?? Recipe(canonicalJSON: record.filterRecipe) }
            let bytes = try FileBytes(path: record.originalPath(in: catalogueFolder))
            let rendered = try LookRenderer.previews(ofOriginal: bytes, looks: recipes, geometry: frame ?? geometry, failOn: .truncated,
                                                     within: frame.map { within($0, geometry: geometry) })
            for (index, pixels) in zip(missing, rendered) { shown[index] = Preview(value: try finish(LookRenderer.PreviewImage(pixels)), from: nil) }
        }
        return CardPreviews(before: shown.count > 1 ? shown[1] : nil, after: shown[0]!, crop: frame)
    }

    /// The first of `candidates` whose file is intact and gives a preview: its file as it is where `asIs` allows,
    /// else shrunk into `box` and finished.
    package static func first<Value: Sendable>(_ candidates: [RenditionLook], box: ThumbnailGeometry, asIs: AsIs<Value>? = nil,
                                       finish: (LookRenderer.PreviewImage) throws -> Value) -> Preview<Value>? {
        for candidate in candidates {
            guard let bytes = intactBytes(of: candidate.rendition) else { continue }
            if let asIs, let size = LookRenderer.shownAsIs(bytes, box: box, limit: asIs.limit) {
                return Preview(value: asIs.make(bytes, size.width, size.height), from: candidate.rendition.kind)
            }
            guard let preview = try? LookRenderer.pipeline(ofRendition: bytes, geometry: box), let value = try? finish(preview) else { continue }
            return Preview(value: value, from: candidate.rendition.kind)
        }
        return nil
    }

    /// The renditions that fit a preview of `look` in `box`, smallest first.
    static func fitting(_ renditions: [RenditionLook], look: String, record: PhotoRecord,
                        box: (width: Int, height: Int)) -> [RenditionLook] {
        renditions.filter { candidate in
            let r = candidate.rendition
            return candidate.look == look && r.width >= box.width && r.height >= box.height && showsWholePhoto(r, of: record)
        }.sorted { $0.rendition.width * $0.rendition.height < $1.rendition.width * $1.rendition.height }
    }

    /// The cropped thumbnails of `look` that fill `geometry`'s box on one side (never a preview smaller than the
    /// box), each the size its geometry says, smallest first.
    static func cropped(_ renditions: [RenditionLook], look: String, record: PhotoRecord,
                        geometry: ThumbnailGeometry) -> [RenditionLook] {
        renditions.filter { candidate in
            let r = candidate.rendition
            guard let crop = candidate.crop, candidate.look == look, r.kind == .thumbnail, !showsWholePhoto(r, of: record) else { return false }
            return r.width == crop.width && r.height == crop.height && (r.width >= geometry.width || r.height >= geometry.height)
        }.sorted { $0.rendition.width * $0.rendition.height < $1.rendition.width * $1.rendition.height }
    }

    /// Whether a rendition shows the whole photo: its width and height in the photo's upright proportions, within a
    /// pixel (a cropped `fit: cover` thumbnail does not, unless the box has the photo's shape; nor does a stretched
    /// `fit: fill` one).
    static func showsWholePhoto(_ r: Rendition, of record: PhotoRecord) -> Bool {
        abs(r.width * record.height - r.height * record.width) <= max(record.width, record.height)
    }

    /// The box a crop's preview is shrunk into: the crop's size fitted into `geometry`'s box, never enlarged.
    package static func within(_ crop: ThumbnailGeometry, geometry: ThumbnailGeometry) -> ThumbnailGeometry {
        let scale = min(1, Double(geometry.width) / Double(crop.width), Double(geometry.height) / Double(crop.height))
        return ThumbnailGeometry(width: max(1, Int((Double(crop.width) * scale).rounded())),
                                 height: max(1, Int((Double(crop.height) * scale).rounded())), crop: .none, sizing: .down)
    }

    /// The preview's size for `record` in `geometry`'s box: the photo's upright size scaled to fit, never enlarged.
    package static func size(of record: PhotoRecord, in geometry: ThumbnailGeometry) -> (width: Int, height: Int) {
        let (w, h) = (max(1, record.width), max(1, record.height))
        let scale = min(1, Double(geometry.width) / Double(w), Double(geometry.height) / Double(h))
        return (max(1, Int((Double(w) * scale).rounded())), max(1, Int((Double(h) * scale).rounded())))
    }

    /// The rendition's file when it is still the recorded one; nil when it is gone or changed (the caller falls
    /// back, as it does when its header does not read or `finish` fails on its pixels). Shrunk into a box by
    /// `LookRenderer.pipeline(ofRendition:geometry:)`, whose pixels the caller's `finish` computes once.
    static func intactBytes(of rendition: Rendition) -> FileBytes? {
        guard RenditionFile.isIntact(rendition), let bytes = try? FileBytes(path: rendition.path),
              bytes.count == rendition.bytes, (try? bytes.sha256()) == rendition.fileHash else { return nil }
        return bytes
    }
}
