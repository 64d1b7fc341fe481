import Foundation
import System
import Catalogue
import Media

/// Writing and checking the files behind renditions.
package enum RenditionFile {
    /// Whether a recorded rendition's file is still there with its recorded size. (`album verify` re-hashes.)
    package static func isIntact(_ rendition: Rendition) -> Bool {
        matches(FileStatus.of(rendition.path), rendition)
    }

    /// `isIntact(_:)`, the file stat-ed relative to the catalogue's folder when the run holds it open
    /// (`StageContext.catalogueFiles`): a walk of `area/ab/name`, not of the whole path, for every rendition a
    /// rerun checks.
    package static func isIntact(_ rendition: Rendition, in context: StageContext) -> Bool {
        guard let folder = context.catalogueFiles, let name = folder.relative(rendition.path) else { return isIntact(rendition) }
        return matches(try? folder.status(of: name, followingLinks: true), rendition)
    }

    /// Whether a stat of a rendition's file says it is there, a regular file of its recorded size.
    private static func matches(_ info: FileStatus?, _ rendition: Rendition) -> Bool {
        info.map { $0.isRegular && $0.size == rendition.bytes } ?? false
    }

    /// Where a rendition inside the catalogue lives: `area/ab/ID-PARAMS8-INPUT8.ext`. The name changes with the
    /// parameters and with the input, so a new rendering never replaces a recorded file in place (a crash between
    /// the rename and the row's commit cannot leave a row describing other bytes); `album gc` removes old ones.
    package static func path(in folder: String, area: String, photo: String, parametersHash: String, inputHash: String,
                     extension ext: String) -> String {
        "\(folder)/\(area)/\(photo.prefix(2))/\(photo)-\(parametersHash.prefix(8))-\(inputHash.prefix(8)).\(ext)"
    }

    /// Writes encoded bytes atomically and describes the result as a rendition to record.
    package static func write(_ rendered: LookRenderer.Rendered, to path: String, tag: ExportTag? = nil, mode: AtomicFile.Mode = .replace,
                      kind: Rendition.Kind, photo: String, parametersHash: String, inputHash: String,
                      context: StageContext) throws -> Rendition {
        // A catalogue rendition's name is new for its parameters and input, and recorded only after the batch's
        // flush, so its data may wait for that flush (unless a file is there already: `--force`, a lost row); an
        // export's name is the user's, its data synced before its rename.
        let fresh = kind != .export && !FileSystem.exists(path)
        try AtomicFile.write(rendered.bytes, to: path, tag: tag, mode: mode, syncs: context.pendingSyncs, freshName: fresh)
        return try describe(rendered, at: path, kind: kind, photo: photo, parametersHash: parametersHash,
                        inputHash: inputHash, context: context)
    }

    /// Describes bytes already at `path` (written now, or found there byte-identical) as a rendition to record.
    static func describe(_ rendered: LookRenderer.Rendered, at path: String, kind: Rendition.Kind, photo: String,
                         parametersHash: String, inputHash: String, context: StageContext) throws -> Rendition {
        Rendition(photo: photo, kind: kind, parametersHash: parametersHash, inputHash: inputHash, path: path,
                  fileHash: try SHA256.hex(rendered.bytes), width: rendered.width, height: rendered.height,
                  bytes: rendered.bytes.count, run: context.run)
    }
}
