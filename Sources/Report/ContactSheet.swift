import Foundation
import System
import Vips
import Core
import Media

/// A single JPEG of a run's thumbnails in a grid, assembled with libvips' `arrayjoin`, for places where HTML is
/// not welcome.
package enum ContactSheet {
    /// Cells are 160 pixels, 8 across, at most `limit` photos. Each cell is the photo's current look, the whole
    /// photo, from a rendition where one fits and from the original where none does (`ReportPreviews`, without
    /// cropped thumbnails: the cells of a sheet keep one framing); a photo neither gives is left out.
    package static func render(_ report: RunReport, catalogueFolder: String, limit: Int = 500) throws -> [UInt8] {
        let geometry = ThumbnailGeometry(width: 160, height: 160, crop: .none, sizing: .down)
        let photos = report.photos.prefix(limit).map { photo in
            var alone = photo
            alone.filtered = false  // one image per cell: the current look
            return alone
        }
        let cells = ReportPreviews.cards(for: photos, geometry: geometry, catalogueFolder: catalogueFolder, crops: false) { try $0.held() }
        let tiles = try cells.compactMap { cell in try (try? cell.get()).map { try $0.after.value.image().flattenedOnWhite() } }
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
