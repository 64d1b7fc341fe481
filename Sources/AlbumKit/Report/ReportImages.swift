import Foundation
import System
import Vips

/// The small images a report inlines: each photo's look before and after its filter, as JPEG data URIs.
enum ReportImages {
    /// Thumbnails in the page fit a 200-pixel box, JPEG quality 60: a 500-photo grid stays a few megabytes.
    static let geometry = ThumbnailGeometry(width: 200, height: 200, crop: .none, sizing: .down)

    /// The photo's original look and, when filtered, its current look.
    static func pair(for photo: PhotoRecord, catalogueFolder: String) throws -> (before: Image, after: Image?) {
        let bytes = try FileBytes(path: photo.originalPath(in: catalogueFolder))
        let recipe = try Recipe(canonicalJSON: photo.filterRecipe)
        let before = try LookRenderer.thumbnail(of: bytes, recipe: .original, geometry: geometry, failOn: .truncated)
        let after = recipe.isEmpty ? nil : try LookRenderer.thumbnail(of: bytes, recipe: recipe, geometry: geometry, failOn: .truncated)
        return (before, after)
    }

    /// `data:image/jpeg;base64,…` for an image.
    static func dataURI(_ image: Image) throws -> String {
        let bytes = try LookRenderer.encode(image, format: .jpeg, quality: 60, metadata: .strip)
        return "data:image/jpeg;base64," + Data(bytes).base64EncodedString()
    }
}
