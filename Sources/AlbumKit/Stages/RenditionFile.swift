import Foundation
import Vips

/// Writing and checking the files behind renditions.
enum RenditionFile {
    /// Whether a recorded rendition's file is still there with its recorded size. (`album verify` re-hashes.)
    static func isIntact(_ rendition: Rendition) -> Bool {
        var info = stat()
        return stat(rendition.path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG && Int(info.st_size) == rendition.bytes
    }

    /// Writes encoded bytes atomically and describes the result as a rendition to record.
    static func write(_ bytes: [UInt8], to path: String, kind: Rendition.Kind, photo: String, image: Image,
                      parametersHash: String, inputHash: String, context: StageContext) throws -> Rendition {
        try AtomicFile.write(bytes, to: path)
        return describe(bytes, at: path, kind: kind, photo: photo, image: image, parametersHash: parametersHash,
                        inputHash: inputHash, context: context)
    }

    /// Describes bytes already at `path` (written now, or found there byte-identical) as a rendition to record.
    static func describe(_ bytes: [UInt8], at path: String, kind: Rendition.Kind, photo: String, image: Image,
                         parametersHash: String, inputHash: String, context: StageContext) -> Rendition {
        Rendition(photo: photo, kind: kind, parametersHash: parametersHash, inputHash: inputHash, path: path,
                  fileHash: SHA256.hex(bytes), width: image.width, height: image.height, bytes: bytes.count,
                  run: context.run)
    }
}
