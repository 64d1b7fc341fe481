import System
import Vips

/// How a report gets its previews: from the renditions the runs made where one fits, from the original only
/// where none does, a few photos at a time (docs/report.md, "Where previews come from").
///
/// A rendition fits a look's preview when it shows that look (`RenditionLook`), shows the whole photo (its aspect
/// within a pixel of the photo's upright size, so a cropped `fit: cover` thumbnail does not), and is at least as
/// large as the preview. It is used only when its file is still the recorded one (regular, the recorded size and
/// SHA-256: the bytes are read to be shrunk anyway, and hashing them costs less than decoding them); otherwise the
/// next fitting rendition is tried, then the original. The smallest fitting rendition is tried first: the least
/// to read and decode.
enum ReportPreviews {
    /// Photos rendered at once: the report's own work, beside whatever else the machine runs.
    static let workers = 2

    /// Each card's previews in `geometry` (a box, uncropped, never enlarged), in the photos' order, each finished by
    /// `finish` (encoded, or kept as pixels) on the thread that rendered it; a card that cannot be made at all is
    /// its error.
    static func cards<Value: Sendable>(for photos: [RunReport.Photo], geometry: ThumbnailGeometry, catalogueFolder: String,
                                       finish: @escaping @Sendable (LookRenderer.PreviewPixels) throws -> Value)
        -> [Result<CardPreviews<Value>, any Error>] {
        ParallelMap.map(photos, workers: workers) { photo in
            Result { try card(for: photo, geometry: geometry, catalogueFolder: catalogueFolder, finish: finish) }
        }
    }

    /// One card: each look from its smallest intact fitting rendition, and the looks none fits from one decode of
    /// the original.
    static func card<Value: Sendable>(for photo: RunReport.Photo, geometry: ThumbnailGeometry, catalogueFolder: String,
                                      finish: (LookRenderer.PreviewPixels) throws -> Value) throws -> CardPreviews<Value> {
        let record = photo.record
        let box = size(of: record, in: geometry)
        let fitted = ThumbnailGeometry(width: box.width, height: box.height, crop: .none, sizing: .down)
        // The current look, then (for a pair) the original look.
        var looks: [(hash: String, recipe: Recipe?)] = [(record.lookHash, nil)]
        if photo.filtered { looks.append((record.hash, .original)) }
        var shown: [Preview<Value>?] = looks.map { _ in nil }
        for (index, look) in looks.enumerated() {
            for candidate in fitting(photo.renditions, look: look.hash, record: record, box: box) {
                guard let pixels = previewed(candidate.rendition, geometry: fitted), let value = try? finish(pixels) else { continue }
                shown[index] = Preview(value: value, from: candidate.rendition.kind)
                break
            }
        }
        let missing = shown.indices.filter { shown[$0] == nil }
        if !missing.isEmpty {
            let recipes = try missing.map { index in try looks[index].recipe ?? Recipe(canonicalJSON: record.filterRecipe) }
            let bytes = try FileBytes(path: record.originalPath(in: catalogueFolder))
            let rendered = try LookRenderer.previews(ofOriginal: bytes, looks: recipes, geometry: geometry, failOn: .truncated)
            for (index, pixels) in zip(missing, rendered) { shown[index] = Preview(value: try finish(pixels), from: nil) }
        }
        return CardPreviews(before: shown.count > 1 ? shown[1] : nil, after: shown[0]!)
    }

    /// The renditions that fit a preview of `look` in `box`, smallest first.
    static func fitting(_ renditions: [RenditionLook], look: String, record: PhotoRecord,
                        box: (width: Int, height: Int)) -> [RenditionLook] {
        renditions.filter { candidate in
            let r = candidate.rendition
            return candidate.look == look && r.width >= box.width && r.height >= box.height
                && abs(r.width * record.height - r.height * record.width) <= max(record.width, record.height)
        }.sorted { $0.rendition.width * $0.rendition.height < $1.rendition.width * $1.rendition.height }
    }

    /// The preview's size for `record` in `geometry`'s box: the photo's upright size scaled to fit, never enlarged.
    static func size(of record: PhotoRecord, in geometry: ThumbnailGeometry) -> (width: Int, height: Int) {
        let (w, h) = (max(1, record.width), max(1, record.height))
        let scale = min(1, Double(geometry.width) / Double(w), Double(geometry.height) / Double(h))
        return (max(1, Int((Double(w) * scale).rounded())), max(1, Int((Double(h) * scale).rounded())))
    }

    /// The rendition's file shrunk into `geometry`, when the file is still the recorded one; nil when it is gone,
    /// changed, or does not decode (the caller falls back).
    static func previewed(_ rendition: Rendition, geometry: ThumbnailGeometry) -> LookRenderer.PreviewPixels? {
        guard RenditionFile.isIntact(rendition), let bytes = try? FileBytes(path: rendition.path),
              bytes.count == rendition.bytes, bytes.sha256() == rendition.fileHash else { return nil }
        return try? LookRenderer.preview(ofRendition: bytes, geometry: geometry)
    }
}
