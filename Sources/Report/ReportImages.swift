import Foundation
import System
import Vips
import Media

/// The small images a report page inlines: each photo's look before and after its filter, as JPEG data URIs, made
/// by `ReportPreviews` (from the runs' renditions where one fits, else from the original).
enum ReportImages {
    /// Thumbnails in the page fit a 200-pixel box, JPEG quality 60: a 500-photo grid stays a few megabytes.
    package static let geometry = ThumbnailGeometry(width: 200, height: 200, crop: .none, sizing: .down)
    package static let quality = 60

    /// Each photo's card previews as data URIs, keyed by photo id.
    static func cards(for photos: [RunReport.Photo], catalogueFolder: String) -> [String: Result<CardPreviews<String>, any Error>] {
        let cards = ReportPreviews.cards(for: photos, geometry: geometry, catalogueFolder: catalogueFolder) { preview in
            dataURI(try preview.encoded(quality: quality))
        }
        return Dictionary(zip(photos.map(\.record.id), cards), uniquingKeysWith: { first, _ in first })
    }

    /// `data:image/jpeg;base64,…` for JPEG bytes.
    static func dataURI(_ jpeg: [UInt8]) -> String {
        "data:image/jpeg;base64," + Data(jpeg).base64EncodedString()
    }
}
