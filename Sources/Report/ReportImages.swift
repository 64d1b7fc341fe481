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

    /// How much larger than its preview a rendition's JPEG may be and still be inlined as it is, the page scaling
    /// it into the preview's size (`ReportPreviews.AsIs`): a 240-pixel thumbnail in the 200-pixel box is, with no
    /// decode, resize or encode (issue 35: the report of a 100-photo run at most 0.15× the run's time).
    package static let asIsLimit = 1.25

    /// Each photo's card previews as data URIs, keyed by photo id.
    static func cards(for photos: [RunReport.Photo], catalogueFolder: String) -> [String: Result<CardPreviews<PageImage>, any Error>] {
        let asIs = ReportPreviews.AsIs<PageImage>(limit: asIsLimit) { bytes, width, height in
            PageImage(src: dataURI(bytes.withBytes { Array($0) }), shownSize: (width, height))
        }
        let cards = ReportPreviews.cards(for: photos, geometry: geometry, catalogueFolder: catalogueFolder, asIs: asIs) { preview in
            PageImage(src: dataURI(try preview.encoded(quality: quality)), shownSize: nil)
        }
        return Dictionary(zip(photos.map(\.record.id), cards), uniquingKeysWith: { first, _ in first })
    }

    /// `data:image/jpeg;base64,…` for JPEG bytes.
    static func dataURI(_ jpeg: [UInt8]) -> String {
        "data:image/jpeg;base64," + Data(jpeg).base64EncodedString()
    }
}

/// One image of the page: its `src` (a JPEG data URI), and the size it is shown at when that is not the JPEG's own
/// (a rendition's file inlined as it is, `ReportImages.asIsLimit`).
struct PageImage: Sendable {
    var src: String
    var shownSize: (width: Int, height: Int)?
}
