import Foundation
import System
import Core
import Catalogue
import Media

extension ExportStage {
    /// What `export: {from: original}` reads: the original's own hash, marked as a copy's (never a look's hash, so
    /// reports never take the copy for a rendering of the look), as `from: motion` marks its movie's.
    static func originalInput(of photo: PhotoRecord) throws -> String {
        try SHA256.hex(Array("original \(photo.hash)".utf8))
    }

    /// `{ext}` of `from: original`: the original's extension as its name has it, lowercased (`IMG_1.MOV` → `mov`),
    /// else its format's first (a file named with none).
    static func originalExtension(of photo: PhotoRecord) -> String {
        let written = (photo.path as NSString).pathExtension.lowercased()
        return !written.isEmpty ? written : ImageFormat(rawValue: photo.format)?.extensions.first ?? photo.format
    }

    /// The original's bytes as they are (never decoded or re-encoded, a video's as well as a photo's): read by the
    /// path `from: motion` reads a Motion Photo's through (`PhotoWork.originalBytes`), which refuses an original that
    /// is gone or whose bytes are no longer those recorded. Its width and height are the catalogue's.
    func originalCopy(of work: inout PhotoWork, context: StageContext) throws -> LookRenderer.Rendered {
        let bytes = try work.originalBytes(catalogueFolder: context.catalogueFolder)
        return LookRenderer.Rendered(width: work.photo.width, height: work.photo.height, bytes: bytes.withBytes { Array($0) },
                                     source: "the original \(work.photo.originalPath(in: context.catalogueFolder)), copied as it is")
    }
}
