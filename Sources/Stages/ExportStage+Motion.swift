import System
import Core
import Media

extension ExportStage {
    /// The movie of a Motion Photo (`from: motion`): its bytes as the original holds them, at the offset and length
    /// import recorded, copied, never decoded or re-encoded (docs/catalogue.md, "Motion"). Its width and height are
    /// not read (0): album does not open the movie.
    func motionPart(of work: inout PhotoWork, context: StageContext) throws -> LookRenderer.Rendered {
        guard let offset = work.photo.motionOffset, let length = work.photo.motionLength else {
            throw StageError(ExportStage.noMotion)  // `run` skips such a photo before it renders
        }
        let bytes = try work.originalBytes(catalogueFolder: context.catalogueFolder)
        guard offset >= 0, length > 0, offset + length <= bytes.count else {
            throw StageError("its motion part (\(length) bytes at byte \(offset)) does not fit in the original's \(bytes.count) bytes: "
                + "the file changed since it was imported; run the job again to import it anew")
        }
        let movie = bytes.withBytes { Array($0[offset..<(offset + length)]) }
        return LookRenderer.Rendered(width: 0, height: 0, bytes: movie,
                                     source: "the movie part of the Motion Photo (\(length) bytes at byte \(offset))")
    }
}
