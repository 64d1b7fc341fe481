import Foundation
import System
import Vips

/// A single JPEG of a run's thumbnails in a grid, assembled with libvips' `arrayjoin`, for places where HTML is
/// not welcome.
enum ContactSheet {
    /// Cells are 160 pixels, 8 across, at most `limit` photos.
    static func render(_ report: RunReport, catalogueFolder: String, limit: Int = 500) throws -> [UInt8] {
        let geometry = ThumbnailGeometry(width: 160, height: 160, crop: .none, sizing: .down)
        var tiles: [Image] = []
        for photo in report.photos.prefix(limit) {
            guard let bytes = try? FileBytes(path: photo.record.originalPath(in: catalogueFolder)),
                  let recipe = try? Recipe(canonicalJSON: photo.record.filterRecipe),
                  let tile = try? LookRenderer.thumbnail(of: bytes, recipe: recipe, geometry: geometry, failOn: .truncated).flattenedOnWhite()
            else { continue }
            tiles.append(tile)
        }
        guard !report.photos.isEmpty else {
            // A photo the run found up to date is no step row (docs/catalogue.md, "Skipped steps").
            throw StageError("run \(report.run.id) changed no photo and failed none, so there is nothing to put on its contact sheet; "
                             + "'album runs' lists the runs, and --run ID picks one that did")
        }
        guard !tiles.isEmpty else {
            throw StageError("run \(report.run.id) has no photo whose original can be read, so there is nothing to put on a contact sheet")
        }
        let sheet = try Image.grid(tiles, across: min(8, tiles.count), gap: 8)
        return try LookRenderer.encode(sheet, format: .jpeg, quality: 85, metadata: .strip)
    }
}
