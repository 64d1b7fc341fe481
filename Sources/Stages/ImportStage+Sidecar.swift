import Foundation
import System
import Vips
import Core
import Catalogue
import Media
import XMP

/// A sidecar as import finds it: its path and stat when the run reads it.
struct FoundSidecar: Sendable {
    var path: String
    var identity: FileIdentity

    /// The sidecar the scan found at `path`, with its stat now; nil when there is none (or it went since the scan).
    static func at(_ path: String?) -> FoundSidecar? {
        guard let path, let status = FileStatus.of(path) else { return nil }
        return FoundSidecar(path: path, identity: FileIdentity(status))
    }

    /// Its packet, or why it could not be read, naming the file: "sidecar /photos/IMG_1.xmp: it is not well-formed
    /// XML: line 3: …". Values present but unusable are said the same way, and the rest is kept.
    func read() -> (XMPPacket?, String?) {
        do {
            let packet = try Sidecar.read(path)
            return (packet, packet.notes.isEmpty ? nil : "sidecar \(path): " + packet.notes.joined(separator: "; "))
        } catch {
            return (nil, "sidecar \(path): \(error)")
        }
    }
}

extension PhotoRecord {
    /// Sets the XMP facts from `metadata` (a sidecar's over the embedded packet's), the sidecar they came from, and
    /// what could not be read.
    mutating func setFacts(_ metadata: PhotoMetadata, sidecar found: FoundSidecar?, problems: [String?]) {
        rating = metadata.rating
        label = metadata.label
        keywords = metadata.keywords
        title = metadata.title
        xmpDescription = metadata.description
        sidecar = found?.path
        sidecarIdentity = found.map { SidecarIdentity($0.identity) } ?? SidecarIdentity()
        let said = problems.compactMap { $0 }
        xmpProblem = said.isEmpty ? nil : said.joined(separator: "; ")
    }

    /// `candidate`'s XMP facts and sidecar, read now; its capture time only where this photo has none, and its
    /// caption where this photo has none or has the one XMP gave it before (a caption of the photo's own, or set with
    /// `album caption`, is never replaced by a sidecar's).
    mutating func takeFacts(of candidate: PhotoRecord) {
        if caption == nil || caption == (xmpDescription ?? title) { caption = candidate.caption }
        xmpDescription = candidate.xmpDescription
        rating = candidate.rating
        label = candidate.label
        keywords = candidate.keywords
        title = candidate.title
        sidecar = candidate.sidecar
        sidecarIdentity = candidate.sidecarIdentity
        xmpProblem = candidate.xmpProblem
        taken = taken ?? candidate.taken
    }
}

extension ImportStage {
    /// What became of a known photo's sidecar, found now at `sidecar` (nil: none) by its stat: "sidecar changed",
    /// "sidecar added" or "sidecar removed"; nil when it is the one its facts were read with. The run
    /// (`importFile`) and `album plan` both ask it.
    public func sidecarChange(of known: PhotoRecord, sidecar: String?) -> String? {
        let found = FoundSidecar.at(sidecar)
        if known.sidecarIsUnchanged(found.map { ($0.path, $0.identity) }) { return nil }
        return known.sidecar == nil ? "sidecar added" : found == nil ? "sidecar removed" : "sidecar changed"
    }

    public func sidecarFacts(_ sidecar: String?, onto photo: PhotoRecord) -> PhotoRecord {
        guard let found = FoundSidecar.at(sidecar), case (let packet?, _) = found.read() else { return photo }
        var known = photo
        known.rating = packet.rating
        known.label = packet.label
        var seen: Set<String> = []
        known.keywords = (packet.keywords + packet.hierarchicalKeywords).filter { seen.insert($0).inserted }
        return known
    }

    /// A known photo with its facts read again: its original's header (no pixel decoded) for the embedded XMP, and
    /// the sidecar found now; its capture time and caption only where it has none. Reads, writes nothing: the run
    /// records the result (`refreshFacts`), `album plan` selects with it.
    public func refreshedFacts(of known: PhotoRecord, sidecar path: String?, catalogueFolder: String) throws -> (PhotoRecord, FileBytes) {
        let found = FoundSidecar.at(path)
        let bytes = try ImageFormat.readOriginal(known.originalPath(in: catalogueFolder))
        guard let decoder = ImageFormat(rawValue: known.format)?.decoder else {
            throw StageError("its format \(known.format) has no decoder")
        }
        let (header, _) = try Attribution.attributed {
            try decoder.header(bytes, failOn: failOn).metadata
        }
        let (packet, problem) = found?.read() ?? (nil, nil)
        let metadata = header.applying(sidecar: packet)
        var candidate = known
        candidate.setFacts(metadata, sidecar: found, problems: [header.embeddedXMPProblem, problem])
        candidate.taken = metadata.taken
        candidate.caption = metadata.caption
        var updated = known
        updated.takeFacts(of: candidate)
        return (updated, bytes)
    }

    /// Records the facts of a photo whose original is unchanged and whose sidecar changed, was added or removed, on
    /// the photo's row and nothing else: no rendition is made again unless a selection now takes or leaves it.
    func refreshFacts(of known: PhotoRecord, sidecar path: String?, change: String,
                      context: StageContext) throws -> (PhotoWork?, StepResult) {
        let (updated, bytes) = try refreshedFacts(of: known, sidecar: path, catalogueFolder: context.catalogueFolder)
        try context.write { try $0.updateFacts(updated) }
        let warning = updated.xmpProblem.map { "; warning: \($0)" } ?? ""
        var work = PhotoWork(photo: updated, original: bytes, recipe: try Recipe(canonicalJSON: updated.filterRecipe))
        work.factsOnly = true
        return (work, StepResult(status: .done, inputHash: known.hash, outputHash: known.hash,
                                 message: "\(change): facts updated\(warning)"))
    }
}
