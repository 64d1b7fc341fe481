import Foundation
import System
import Vips
import Core
import Catalogue
import Media
import XMP

extension ImportStage {
    public func unchanged(_ path: String, sidecar: String?, identity: FileIdentity, known: PhotoRecord,
                          context: StageContext) -> (PhotoWork, StepResult)? {
        guard !context.force, identity.isUnchanged(since: known), context.secondOriginalPath?(path) == nil,
              sidecarChange(of: known, sidecar: sidecar) == nil,
              let recipe = try? Recipe(canonicalJSON: known.filterRecipe) else { return nil }
        return (PhotoWork(photo: known, recipe: recipe), ImportStage.unchangedStep(known))
    }

    /// The step of a file import found unchanged: nothing read, nothing written.
    static func unchangedStep(_ known: PhotoRecord) -> StepResult {
        .skipped("unchanged since it was imported", input: known.hash, output: known.hash)
    }

    /// Imports one file: reads it once, hashes it, sniffs its format, reads its header and its XMP sidecar (when the
    /// scan found one), records the photo.
    /// - Parameter scanned: the file's identity from the scan's stat (`ImportScan.identities`), so it is not stat-ed
    ///   again; nil to stat it here (`entry(atPath:)`, which also says what an entry that is no regular file is).
    /// - Returns: the photo's work state for the stages after import (nil when it failed), and the step's result.
    public func importFile(_ path: String, sidecar: String?, identity scanned: FileIdentity? = nil,
                           context: StageContext) -> (PhotoWork?, StepResult) {
        let identity: FileIdentity
        switch scanned.map(ImportEntry.file) ?? entry(atPath: path) {
        case .failed(let reason): return (nil, .failed(reason))
        case .skipped(let reason): return (nil, .skipped(reason, input: nil, output: nil))
        case .file(let found): identity = found
        }
        // The pair's other file, when the scan paired this one with it (docs/catalogue.md, "Pairs").
        let secondPath = context.secondOriginalPath?(path)
        let found = FoundSidecar.at(sidecar)
        do {
            // Fast path: the same file, unchanged since it was hashed, is not read again (nor its pair's other
            // file, when that too has its recorded stat); nor is its sidecar, when its stat is the one recorded. A
            // sidecar changed, added or removed updates the facts alone.
            if !context.force, let known = try context.photo(atPath: path), identity.isUnchanged(since: known) {
                if let unchanged = unchanged(path, sidecar: sidecar, identity: identity, known: known, context: context) { return unchanged }
                let second = try secondPath.map { try importSecond($0, of: known, context: context) }
                if let change = sidecarChange(of: known, sidecar: sidecar) {
                    let (work, refreshed) = try refreshFacts(of: known, sidecar: sidecar, change: change, context: context)
                    var result = refreshed
                    if let second, second.status == .done {
                        result.message = [second.message, result.message].compactMap { $0 }.joined(separator: "; ")
                    }
                    return (work, result)
                }
                return (PhotoWork(photo: known, recipe: try Recipe(canonicalJSON: known.filterRecipe)), second ?? ImportStage.unchangedStep(known))
            }
            // The same for another name of a photo: an alias unchanged since it was hashed is that photo's bytes.
            if !context.force, let (alias, known) = try context.alias(atPath: path), identity.isUnchanged(since: alias) {
                guard FileSystem.exists(known.path) else {
                    // The photo's own file is gone and its bytes are here: this name becomes its path (a move).
                    let moved = try context.write { try $0.promote(alias) } ?? known
                    return (PhotoWork(photo: moved, recipe: try Recipe(canonicalJSON: moved.filterRecipe)),
                            .skipped(ImportMatch.moved.reason(known), input: known.hash, output: known.hash))
                }
                return (PhotoWork(photo: known, recipe: try Recipe(canonicalJSON: known.filterRecipe)),
                        .skipped("unchanged since it was found as another name of \(known.path)", input: known.hash, output: known.hash))
            }
            let bytes = try ImageFormat.readOriginal(path)
            let hash = try bytes.sha256()
            let format = try ImageFormat.sniff(bytes)
            guard let decoder = format.decoder else {
                throw SniffFailure.unsupported("\(format.rawValue), which album recognises but has no decoder for")
            }
            // The header's failure and warnings are this file's own, even beside other workers (see `Attribution`). No
            // pixel is decoded: libvips' header, or libraw's identify.
            let (header, _) = try Attribution.attributed {
                let header = try decoder.header(bytes, failOn: failOn)
                try checkLimits(header)
                return header.metadata
            }
            let (packet, problem) = found?.read() ?? (nil, nil)
            let metadata = header.applying(sidecar: packet)
            var photo = PhotoRecord(
                id: PhotoRecord.id(forHash: hash), hash: hash, path: path, bytes: bytes.size,
                mtimeNanoseconds: identity.mtimeNanoseconds, inode: identity.inode, width: metadata.width, height: metadata.height, format: format.rawValue,
                taken: metadata.taken, added: Timestamp.now(), caption: metadata.caption, filter: "none",
                filterRecipe: Recipe.original.canonical.text, camera: metadata.camera,
                orientation: metadata.orientation, hasGPS: metadata.hasGPS, replaces: nil, storedPath: nil, lens: metadata.lens)
            // A Motion Photo's movie, where its XMP places one and an MP4 starts there (docs/catalogue.md, "Motion").
            let (motion, motionProblem) = MotionPart.find(header.motionMarker, in: bytes)
            photo.motionOffset = motion?.offset
            photo.motionLength = motion?.length
            photo.setVideoFacts(metadata.video)
            photo.setFacts(metadata, sidecar: found, problems: [header.embeddedXMPProblem, header.motionProblem ?? motionProblem, problem])
            if mode == .copy {
                photo.storedPath = "originals/\(hash.prefix(2))/\(hash).\(format.rawValue)"
                let target = context.catalogueFolder + "/" + photo.storedPath!
                if !FileSystem.exists(target) {
                    // A video is held only as its head (`ImageFormat.readOriginal`): its copy reads it whole, within
                    // FileBytes' 2 GiB cap, and must still be the bytes hashed.
                    let whole = bytes.isWhole ? bytes : try FileBytes(path: path)
                    guard try whole.sha256() == hash else {
                        throw StageError("cannot read it: the file changed while it was being read (is it still being copied?)")
                    }
                    try whole.withBytes { try AtomicFile.write(Array($0), to: target) }
                }
            }
            let second = try secondPath.flatMap(readSecond)
            let outcome = try record(photo, second: second, context: context)
            // A sidecar or embedded packet that could not be read is said on the step, and the photo keeps its own facts.
            let warning = photo.xmpProblem.map { "warning: \($0)" }
            switch outcome {
            case .added(let photo):
                return (PhotoWork(photo: photo, original: bytes, recipe: .original),
                        StepResult(status: .done, inputHash: hash, outputHash: hash, message: warning))
            case .duplicate(let existing, let reason):
                let recipe = try Recipe(canonicalJSON: existing.filterRecipe)
                return (PhotoWork(photo: existing, original: bytes, recipe: recipe), .skipped(reason, input: hash, output: hash))
            case .paired(let existing, let message):
                // Known bytes whose pair's other file is new to the photo, or changed: the second original's new version.
                let recipe = try Recipe(canonicalJSON: existing.filterRecipe)
                return (PhotoWork(photo: existing, original: bytes, recipe: recipe),
                        StepResult(status: .done, inputHash: hash, outputHash: second?.hash, message: message))
            case .alias(let existing, let alias, let reason):
                var work = PhotoWork(photo: existing, original: bytes, recipe: try Recipe(canonicalJSON: existing.filterRecipe))
                work.newAlias = alias
                return (work, StepResult(status: .done, inputHash: hash, outputHash: hash, message: reason))
            }
        } catch let error as FileBytesError {
            return (nil, .failed("cannot read it: \(error.reason)"))
        } catch let error as SniffFailure {
            return (nil, .failed(error.description))
        } catch let error as VipsError {
            return (nil, .failed("cannot decode its header: \(error.reason)"))
        } catch let damage as DamagedImage {
            return (nil, .failed("cannot decode its header: \(damage.reason)"))
        } catch {
            return (nil, .failed(ErrorReason.of(error)))
        }
    }

    private enum Outcome {
        case added(PhotoRecord), duplicate(PhotoRecord, String), alias(PhotoRecord, PhotoAlias, String)
        /// Known bytes (a duplicate) whose pair's second original was new to the photo or changed.
        case paired(PhotoRecord, String)
    }

    /// Refuses decompression bombs and absurd headers before a pixel is decoded.
    private func checkLimits(_ header: PhotoHeader) throws {
        let (width, height) = (header.storedWidth, header.storedHeight)
        let pixels = width * height
        guard width > 0, height > 0 else { throw StageError("its header claims an empty image (\(width)×\(height))") }
        guard pixels <= maxMegapixels * 1_000_000 else {
            throw StageError("\(width)×\(height) is \(pixels / 1_000_000) megapixels, over the max-pixels limit of \(maxMegapixels) (raise max-pixels on the import to allow it)")
        }
        for field in ["exif-data", "xmp-data", "icc-profile-data", "iptc-data"] {
            let size = header.blockSizes[field] ?? 0
            guard size <= ImportStage.maxMetadataBytes else {
                throw StageError("its \(field) metadata is \(size >> 20) MB, over the \(ImportStage.maxMetadataBytes >> 20) MB album accepts")
            }
        }
    }

    /// Checks for the same bytes and records the photo, atomically on the catalogue's serial owner: bytes already
    /// known are the same file touched, a move, or another name of the photo (`ImportMatch`); new bytes are a new
    /// photo, a new version of the photo at that path when there is one. Any alias recorded at the path for other
    /// bytes is forgotten: the file there no longer holds them.
    ///
    /// A path is one thing at a time: the file is a photo's own original now, so any second original recorded there
    /// is forgotten; the pair's `second`, when there is one, is recorded for the photo the file is (not for another
    /// name of a known photo, an alias, which keeps its photo's originals as they are).
    private func record(_ candidate: PhotoRecord, second: ReadSecond?, context: StageContext) throws -> Outcome {
        try context.write { catalogue -> Outcome in
            try catalogue.forgetSecondOriginals(path: candidate.path)
            let outcome = try ImportStage.recordPhoto(candidate, catalogue: catalogue)
            guard let second else { return outcome }
            let photo: String
            switch outcome {
            case .added(let added): photo = added.id
            case .duplicate(let existing, _): photo = existing.id
            case .alias, .paired: return outcome
            }
            let recorded = try catalogue.secondOriginals(photo: photo).first { $0.path == second.path }
            try ImportStage.keep(recorded.map { $0.with(second.identity, hash: second.hash) } ?? second.record(for: photo, added: candidate.added),
                                 catalogue: catalogue)
            if case .duplicate(let existing, _) = outcome, recorded?.hash != second.hash {
                return .paired(existing, ImportStage.recordedSecond(second.path, isNew: recorded == nil))
            }
            return outcome
        }
    }

    /// Records `candidate` (`record`'s rule for its bytes), on the catalogue's serial owner.
    private static func recordPhoto(_ candidate: PhotoRecord, catalogue: Catalogue) throws -> Outcome {
        do {  // the body as it was inside `record`'s closure (kept so, for a small diff)
            if let existing = try catalogue.photo(hash: candidate.hash) {
                let match = ImportMatch.of(path: candidate.path, photo: existing, aliases: try catalogue.aliases(photo: existing.id))
                let reason = match.reason(existing)
                switch match {
                case .sameFile, .moved:
                    // The same file again (touched, or moved here): remember where it is and its new stat, and the
                    // facts of the sidecar beside it now.
                    try catalogue.forgetAliases(path: candidate.path)
                    try catalogue.updateLocation(photo: existing.id, path: candidate.path,
                                                 mtimeNanoseconds: candidate.mtimeNanoseconds, inode: candidate.inode)
                    var moved = existing
                    moved.path = candidate.path
                    moved.mtimeNanoseconds = candidate.mtimeNanoseconds
                    moved.inode = candidate.inode
                    moved.takeFacts(of: candidate)
                    moved.takeVideoFacts(of: candidate)
                    if moved != existing { try catalogue.updateFacts(moved) }
                    return .duplicate(moved, reason)
                case .knownAlias(var alias):
                    alias.bytes = candidate.bytes
                    alias.mtimeNanoseconds = candidate.mtimeNanoseconds
                    alias.inode = candidate.inode
                    try catalogue.updateStat(of: alias)
                    return .duplicate(existing, reason)
                case .newAlias:
                    let alias = PhotoAlias(photo: existing.id, path: candidate.path, bytes: candidate.bytes,
                                           mtimeNanoseconds: candidate.mtimeNanoseconds, inode: candidate.inode,
                                           added: candidate.added)
                    try catalogue.forgetAliases(path: candidate.path)
                    try catalogue.insert(alias)
                    return .alias(existing, alias, reason)
                }
            }
            var photo = candidate
            if let previous = try catalogue.latestPhoto(path: candidate.path) {
                photo.replaces = previous.id  // the file's bytes changed: a new version of that photo
                photo.caption = photo.caption ?? previous.caption
            }
            try catalogue.forgetAliases(path: candidate.path)
            try catalogue.insert(photo)
            return .added(photo)
        }
    }
}
