import System
import Core
import Catalogue
import Media

extension ExportStage {
    /// A photo's motion part, what `export: {from: motion}` copies (docs/catalogue.md, "Motion" and "Live Photos").
    enum Motion {
        /// A Motion Photo's movie: `length` bytes at `offset` of the original, whose hash is `original`.
        case appended(offset: Int, length: Int, original: String)
        /// A Live Photo's movie: its second original, a MOV beside the still.
        case file(SecondOriginal)

        /// What the export reads: the bytes' own hash marked as a movie's (never a look's hash, so reports never take
        /// the movie for a picture of the photo): the original's for a Motion Photo, the MOV's for a Live Photo.
        var input: String {
            get throws {
                switch self {
                case .appended(_, _, let original): try SHA256.hex(Array("motion part of \(original)".utf8))
                case .file(let movie): try SHA256.hex(Array("motion part \(movie.hash)".utf8))
                }
            }
        }
    }

    /// Why `from: motion` skips a photo without a movie.
    static let noMotion = "it has no motion part (neither a Motion Photo nor a Live Photo): nothing to export from: motion"

    /// The photo's motion part: the movie appended to a Motion Photo, else a Live Photo's MOV; nil for a still. The
    /// MOV's row is read from the catalogue, not the run's snapshot: this run's import may have recorded it just now.
    func motion(of photo: PhotoRecord, context: StageContext) throws -> Motion? {
        if let offset = photo.motionOffset, let length = photo.motionLength { return .appended(offset: offset, length: length, original: photo.hash) }
        let id = photo.id
        return try context.read { try $0.secondOriginals(photo: id) }.first { ImageFormat.isLiveMovie(path: $0.path) }.map { .file($0) }
    }

    /// The motion part's bytes as they are (never decoded or re-encoded): the range of the original import recorded,
    /// or the Live Photo's MOV, whose bytes must still be those recorded. Its width and height are not read (0).
    func motionPart(of work: inout PhotoWork, context: StageContext) throws -> LookRenderer.Rendered {
        switch try motion(of: work.photo, context: context) {
        case nil:
            throw StageError(ExportStage.noMotion)  // `run` skips such a photo before it renders
        case .appended(let offset, let length, _):
            let bytes = try work.originalBytes(catalogueFolder: context.catalogueFolder)
            guard offset >= 0, length > 0, offset + length <= bytes.count else {
                throw StageError("its motion part (\(length) bytes at byte \(offset)) does not fit in the original's \(bytes.count) bytes: "
                    + "the file changed since it was imported; run the job again to import it anew")
            }
            let movie = bytes.withBytes { Array($0[offset..<(offset + length)]) }
            return LookRenderer.Rendered(width: 0, height: 0, bytes: movie,
                                         source: "the movie part of the Motion Photo (\(length) bytes at byte \(offset))")
        case .file(let recorded):
            let bytes: FileBytes
            do { bytes = try FileBytes(path: recorded.path) } catch let error as FileBytesError {
                throw StageError("cannot read its Live Photo movie \(recorded.path): \(error.reason)")
            }
            guard try bytes.sha256() == recorded.hash else {
                throw StageError("its Live Photo movie \(recorded.path) changed since it was imported; run the job again to import its new version")
            }
            return LookRenderer.Rendered(width: 0, height: 0, bytes: bytes.withBytes { Array($0) },
                                         source: "the Live Photo's movie \(recorded.path)")
        }
    }
}
