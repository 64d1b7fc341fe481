import Foundation
import System
import Vips
import Core
import Catalogue
import Media

/// `export`: writes a rendition of the photo's current look (or of its thumbnail) to a path made from a template.
public struct ExportStage: PhotoStage, DeclaredOptions {
    public static let stage = StageName.export

    public enum Source: String, Sendable, CaseIterable {
        /// The current look at full size (or `max-size`), rendered from the original.
        case image
        /// The thumbnail made by a `thumbnail` stage earlier in the chain.
        case thumbnail
        /// The movie of a Motion Photo, its bytes copied as they are in the original (never re-encoded; `{ext}` is
        /// `mp4`). A photo with none is skipped with the reason, so a job over a library of stills does not fail.
        case motion
        /// The original itself, its bytes copied as they are, whatever its kind (a video is never re-encoded; `{ext}`
        /// is the original's extension). An original whose bytes are no longer those recorded is refused, as
        /// `from: motion` refuses a changed movie.
        case original
    }

    /// What to do with a file already at the export's path that is not this catalogue's export of this photo
    /// (`ExportStage.owner`): a file album did not write, another photo's, or another catalogue's.
    public enum IfExists: String, Sendable, CaseIterable {
        /// Leave a byte-identical file alone (unless another catalogue exported it); replace a file this catalogue
        /// exported for this photo; fail otherwise, naming the other catalogue when it is one.
        case skip
        /// Always replace the file (another catalogue's too: its `album verify` then reports it).
        case overwrite
        /// Write next to it as `name-1.jpg`, `name-2.jpg`, …
        case rename
    }

    public var from: Source = .image
    /// Where to write; required in a job.
    public var to: PathTemplate
    /// What the export writes, and so what `{ext}` in `to:` is (`OutputFormat.fileExtension`).
    public var format: OutputFormat = .jpeg
    /// Like the gallery app's full images (JPEG quality 0.9).
    public var quality: Int = 90
    /// The long edge at most, in pixels; never enlarged.
    public var maxSize: Int? = nil
    public var metadata: MetadataPolicy = .stripGPS
    public var ifExists: IfExists = .skip
    /// A camera RAW's embedded preview, or libraw's decode.
    public var raw: RawSource = .preview
    /// A HEIF/AVIF file's embedded thumbnail, or its primary image.
    public var embeddedThumbnail: EmbeddedThumbnailUse = .use
    /// A video's poster frame: the search, or a time.
    public var poster: PosterTime = .auto
    public var select: Selection? = nil

    public init(to: PathTemplate) { self.to = to }

    /// Every option, declared once: the job file's keys, the parameters recorded with each export, the docs.
    public static let options: [StageOption<ExportStage>] = [
        .choice("from", \.from),
        StageOption("to", .template(\.to), required: true),
        .choice("format", \.format, documentedDefault: "from `to:`'s extension, else the thumbnail's with `from: thumbnail`, else `jpeg`"),
        .integer("quality", \.quality, in: 1...100),
        .integer("max-size", \.maxSize, in: 1...100_000),
        .choice("metadata", \.metadata),
        .choice("if-exists", \.ifExists),
        .choice("raw", \.raw, scope: .cameraRaw),
        .choice("embedded-thumbnail", \.embeddedThumbnail, scope: .embeddedThumbnail),
        .poster(\.poster),
        .selection(\.select),
    ]

    /// The sources `raw:`, `embedded-thumbnail:` and `poster:` allow.
    var policy: SourcePolicy { SourcePolicy(raw: raw, embeddedThumbnail: embeddedThumbnail, poster: poster) }

    /// Exports the photo once per target (`targets(of:)`: one per known path when the template is over a path's
    /// name, else one), rendering it at most once: done when any file was written, else skipped.
    public func run(_ work: inout PhotoWork, context: StageContext) throws -> StepResult {
        if from == .motion, try motion(of: work.photo, context: context) == nil {
            return .skipped(ExportStage.noMotion, input: work.photo.hash, output: nil)
        }
        let input = try self.input(of: work, context: context)
        let parametersHash = parametersHash(of: work, context: context)
        var rendered: LookRenderer.Rendered?
        var results: [StepResult] = []
        for target in try targets(of: work) {
            results.append(try export(&work, to: target, input: input, parametersHash: parametersHash,
                                      renderedOnce: &rendered, context: context))
        }
        return results.first { $0.status == .done } ?? results[0]
    }

    /// What the export reads: the look's hash, or the thumbnail's file hash.
    private func input(of work: PhotoWork, context: StageContext) throws -> String {
        switch from {
        case .image: return work.lookHash
        case .thumbnail:
            guard let thumbnail = work.thumbnail else {
                throw StageError("export from: thumbnail needs a thumbnail stage before it in the job")
            }
            return thumbnail.fileHash
        case .motion:
            guard let motion = try motion(of: work.photo, context: context) else { throw StageError(ExportStage.noMotion) }
            return try motion.input
        case .original: return try ExportStage.originalInput(of: work.photo)
        }
    }

    /// Writes (or finds up to date) the export at one target, rendering the photo when no earlier target has.
    private func export(_ work: inout PhotoWork, to target: String, input: String, parametersHash: String,
                        renderedOnce: inout LookRenderer.Rendered?, context: StageContext) throws -> StepResult {
        let photoID = work.photo.id
        let previous = try previousExport(of: work.photo, at: target, context: context)
            ?? abandonedExport(at: target, for: work.photo, context: context)
        if !context.force, let previous, previous.parametersHash == parametersHash, previous.inputHash == input,
           RenditionFile.isIntact(previous, in: context) {
            return .skipped("up to date", input: input, output: previous.fileHash)
        }
        if !context.force, let previous,
           upToDateUnderAbsoluteRoot(previous, photo: photoID, input: input, parametersHash: parametersHash, context: context) {
            // Made by an album that recorded the root absolute, and the library has not moved since: the same file.
            var rewritten = previous
            rewritten.parametersHash = parametersHash
            let recorded = rewritten
            try context.catalogue { try $0.record(recorded) }
            return .skipped("up to date", input: input, output: previous.fileHash)
        }
        try requireUnderRoot(target)
        let rendered = try renderedOnce ?? render(&work, context: context)
        renderedOnce = rendered
        let tag = ExportTag(photo: work.photo.hash, catalogue: try context.identity(), catalogueFolder: context.catalogueFolder)
        var path = previous?.path ?? target
        // Each turn looks at the name, then writes; a turn ends early only when another writer (another catalogue's
        // run) took the name between the look and the rename, and the next turn looks again.
        for _ in 0..<1000 {
            let owner = FileSystem.exists(path) ? ExportStage.owner(of: path, tag: tag, recorded: previous?.path == path) : nil
            if let owner, owner != .otherCatalogue, let bytes = try? FileBytes(path: path),
               bytes.count == rendered.bytes.count, try bytes.sha256() == SHA256.hex(rendered.bytes) {
                // Nothing to write: record the file that is already there, as this photo's only (an edited
                // original's earlier version no longer describes it).
                let rendition = try RenditionFile.describe(rendered, at: path, kind: .export, photo: photoID,
                                                       parametersHash: parametersHash, inputHash: input, context: context)
                let superseded = previous.flatMap { $0.photo != photoID && $0.path == path ? $0 : nil }
                try context.catalogue { catalogue in
                    if let superseded {
                        try catalogue.forgetRendition(photo: superseded.photo, kind: .export, path: superseded.path)
                    }
                    try catalogue.record(rendition)
                }
                // `--force` rendered it again (and found the same bytes): that is work done, and counted so.
                return context.force ? .done(input: input, output: rendition.fileHash, source: rendered.source, parameters: scopedParameters(of: work, context: context))
                    : .skipped("an identical file is already there", input: input, output: rendition.fileHash)
            }
            var mode = AtomicFile.Mode.noReplace
            if let owner {
                if owner == .thisPhoto || ifExists == .overwrite {
                    mode = .replace
                } else if ifExists == .rename {
                    path = ExportStage.freeName(for: target)
                    continue
                } else {
                    throw StageError(ExportStage.refusal(path, owner: owner))
                }
            } else if ifExists == .overwrite {
                mode = .replace
            }
            if let previous, previous.path == path {
                // The recorded file is about to be replaced: mark its row as being written, durably, so that a crash or
                // a power cut between the rename and the new row leaves no row describing other bytes; the mark still
                // says the file is ours (without extended attributes too), and verify lists it until a run records it.
                let replaced = path, run = context.run
                try context.catalogueCommitted {
                    try $0.markBeingWritten(photo: previous.photo, kind: .export, path: replaced, run: run)
                }
            }
            let rendition: Rendition
            do {
                rendition = try RenditionFile.write(rendered, to: path, tag: tag, mode: mode, kind: .export, photo: photoID,
                                                    parametersHash: parametersHash, inputHash: input, context: context)
            } catch let error as AtomicFileError where error.exists {
                continue  // another writer's file is there now: look at it again
            }
            let marked = previous.flatMap { $0.photo != photoID && $0.path == path ? $0 : nil }
            try context.catalogue { catalogue in
                if let marked { try catalogue.forgetRendition(photo: marked.photo, kind: .export, path: marked.path) }
                try catalogue.record(rendition)
            }
            return .done(input: input, output: rendition.fileHash, source: rendered.source, parameters: scopedParameters(of: work, context: context))
        }
        throw StageError("cannot export to \(target): other writers keep taking every free name beside it")
    }

    public func plan(_ work: inout PhotoWork, context: StageContext) throws -> Bool {
        let input: String
        switch from {
        case .image: input = work.lookHash
        case .thumbnail:
            guard let thumbnail = work.thumbnail else { return false }  // the thumbnail is to be made first
            input = thumbnail.fileHash
        case .motion:
            guard let motion = try motion(of: work.photo, context: context) else { return true }  // nothing to export: skipped
            input = try motion.input
        case .original: input = try ExportStage.originalInput(of: work.photo)
        }
        let parametersHash = parametersHash(of: work, context: context)
        for target in try targets(of: work) {
            guard let previous = try previousExport(of: work.photo, at: target, context: context) else { return false }
            let current = previous.parametersHash == parametersHash && previous.inputHash == input && RenditionFile.isIntact(previous, in: context)
            guard current || upToDateUnderAbsoluteRoot(previous, photo: work.photo.id, input: input, parametersHash: parametersHash,
                                                       context: context)
            else { return false }
        }
        return true
    }

    /// This photo's earlier export to `target`: at the target itself, or (rename) beside it as name-N.ext.
    private func previousExport(of photo: PhotoRecord, at target: String, context: StageContext) throws -> Rendition? {
        let ifExists = self.ifExists
        // This photo's export, else that of the version it replaces, and so on back: an edited original's export is
        // still its own, to replace (its row is forgotten with the file's), not another photo's file to refuse.
        var version: PhotoRecord? = photo
        var seen: Set<String> = []
        while let current = version, seen.insert(current.id).inserted {
            let earlier = try context.renditions(of: current.id).filter { $0.kind == .export }
            if let found = earlier.first(where: { $0.path == target })
                ?? (ifExists == .rename ? earlier.first { ExportStage.isRename($0.path, of: target) } : nil) {
                return found
            }
            guard let replaced = current.replaces else { return nil }
            version = try context.read { try $0.photo(id: replaced) }
        }
        return nil
    }

    /// The encoded file, from the look or from the thumbnail.
    private func render(_ work: inout PhotoWork, context: StageContext) throws -> LookRenderer.Rendered {
        switch from {
        case .image:
            // A filter stage with `keep: full-size` already encoded this look at full size the same way: copy its file
            // (one decode and one encode per photo instead of two). Otherwise render the original with the recipe.
            // A video's filtered file is of its `auto` poster (the filter stage takes no `poster:`).
            let samePoster = poster == .auto || ImageFormat.mediaKind(of: work.photo.format) != .video
            if samePoster, let (filtered, filteredQuality) = work.filtered, format == .jpeg, quality == filteredQuality, metadata == .stripGPS,
               maxSize.map({ max(filtered.width, filtered.height) <= $0 }) ?? true, RenditionFile.isIntact(filtered, in: context),
               let bytes = try? FileBytes(path: filtered.path), bytes.count == filtered.bytes {
                return LookRenderer.Rendered(width: filtered.width, height: filtered.height, bytes: bytes.withBytes { Array($0) })
            }
            if let maxSize, let shared = try work.sharedImage(atLeast: maxSize, policy: policy, context: context) {
                // Derived from the photo's one decode for several outputs (`SharedDecode`).
                var rendered = try LookRenderer.renderFullSize(fromShared: shared.image, recipe: work.recipe, maxSize: maxSize, format: format,
                                                               quality: quality, metadata: metadata, failOn: context.failOn)
                rendered.source = shared.source
                work.sharedOutputMade()
                return rendered
            }
            let bytes = try work.originalBytes(catalogueFolder: context.catalogueFolder)
            return try LookRenderer.renderFullSize(of: bytes, recipe: work.recipe, maxSize: maxSize, format: format, quality: quality,
                                                   metadata: metadata, failOn: context.failOn, reserve: context.withPixels,
                                                   policy: policy)
        case .thumbnail:
            let thumbnail = work.thumbnail!
            let bytes = try FileBytes(path: thumbnail.path)
            // The thumbnail already has the look and no metadata; reuse its bytes when nothing would change.
            if maxSize.map({ max(thumbnail.width, thumbnail.height) <= $0 }) ?? true, thumbnail.path.hasSuffix("." + format.fileExtension) {
                return LookRenderer.Rendered(width: thumbnail.width, height: thumbnail.height, bytes: bytes.withBytes { Array($0) })
            }
            return try LookRenderer.guarded(failOn: .error) {
                var image = try ImageFormat.open(bytes, sequential: true, failOn: .error)
                if let maxSize, max(image.width, image.height) > maxSize {
                    image = try image.resized(by: Double(maxSize) / Double(max(image.width, image.height)))
                }
                return LookRenderer.Rendered(width: image.width, height: image.height,
                                             bytes: try LookRenderer.encode(image, format: format, quality: quality, metadata: .strip))
            }
        case .motion:
            return try motionPart(of: &work, context: context)
        case .original:
            return try originalCopy(of: &work, context: context)
        }
    }

    /// Whether `path` is a name `freeName` could have given for `target`: `photo-3.jpg` for `photo.jpg`.
    static func isRename(_ path: String, of target: String) -> Bool {
        let t = target as NSString
        let stem = t.deletingPathExtension, ext = t.pathExtension
        let suffix = ext.isEmpty ? "" : "." + ext
        guard path.hasPrefix(stem + "-"), path.hasSuffix(suffix), path.count > stem.count + 1 + suffix.count else { return false }
        let number = path.dropFirst(stem.count + 1).dropLast(suffix.count)
        return number.allSatisfy(\.isASCII) && number.allSatisfy(\.isNumber) && number.first != "0"
    }

    /// `photo.jpg` → `photo-1.jpg`, `photo-2.jpg`, … the first name not taken.
    static func freeName(for path: String) -> String {
        let url = path as NSString
        let stem = url.deletingPathExtension, ext = url.pathExtension
        var n = 1
        while true {
            let candidate = ext.isEmpty ? "\(stem)-\(n)" : "\(stem)-\(n).\(ext)"
            if !FileSystem.exists(candidate) { return candidate }
            n += 1
        }
    }
}
