import Vips
import Core
import Catalogue
import Media

/// `thumbnail`: a small image of the photo's current look, like the gallery app's 240×240 JPEG at quality 0.7.
///
/// One libvips pipeline: shrink-on-load from the original (JPEG DCT scaling), Lanczos3, EXIF orientation, ICC to
/// sRGB when the photo has a profile, then the look's filter steps on the small image. Metadata is stripped. A
/// filtered look's thumbnail brings the original look's in the same geometry from the same decode, when the
/// catalogue has none: the report's "before" (docs/report.md).
public struct ThumbnailStage: PhotoStage, DeclaredOptions {
    public static let stage = StageName.thumbnail

    public enum Fit: String, Sendable, CaseIterable {
        /// Fill the box, cropping what overflows.
        case cover
        /// Fit inside the box, keeping the whole photo.
        case contain
        /// Stretch to the box exactly.
        case fill
    }

    public enum Crop: String, Sendable, CaseIterable { case centre, attention, entropy }

    public var width: Int = 240
    public var height: Int = 240
    public var fit: Fit = .cover
    /// Which part `cover` keeps.
    public var crop: Crop = .centre
    public var format: OutputFormat = .jpeg
    public var quality: Int = 70
    /// A camera RAW's embedded preview, or libraw's decode.
    public var raw: RawSource = .preview
    /// A HEIF/AVIF file's embedded thumbnail, or its primary image.
    public var embeddedThumbnail: EmbeddedThumbnailUse = .use
    /// A video's poster frame: the search, or a time.
    public var poster: PosterTime = .auto
    public var select: Selection? = nil

    public init() {}

    /// Every option, declared once: the job file's keys, the parameters hashed into each thumbnail's name, the docs.
    public static let options: [StageOption<ThumbnailStage>] = [
        StageOption("size", .size(width: \.width, height: \.height)),
        .choice("fit", \.fit),
        .choice("crop", \.crop),
        .choice("format", \.format, only: [.jpeg, .webp, .avif, .png]),
        .integer("quality", \.quality, in: 1...100),
        .choice("raw", \.raw, scope: .cameraRaw),
        .choice("embedded-thumbnail", \.embeddedThumbnail, scope: .embeddedThumbnail),
        .poster(\.poster),
        .selection(\.select),
    ]

    /// The sources `raw:`, `embedded-thumbnail:` and `poster:` allow.
    var policy: SourcePolicy { SourcePolicy(raw: raw, embeddedThumbnail: embeddedThumbnail, poster: poster) }

    /// The libvips geometry for these options.
    public var geometry: ThumbnailGeometry {
        switch fit {
        case .cover:
            let crop: ThumbnailGeometry.Crop = switch self.crop {
            case .centre: .centre
            case .attention: .attention
            case .entropy: .entropy
            }
            return ThumbnailGeometry(width: width, height: height, crop: crop, sizing: .both)
        case .contain: return ThumbnailGeometry(width: width, height: height, crop: .none, sizing: .both)
        case .fill: return ThumbnailGeometry(width: width, height: height, crop: .none, sizing: .force)
        }
    }

    public static var probesUpToDate: Bool { true }

    /// The recorded thumbnail of the current look with these options, its file intact: from the photo's id, hash,
    /// recipe and format, and its renditions' probe columns.
    public func upToDate(probing work: inout PhotoWork, context: StageContext) throws -> StepResult? {
        guard !context.force, let existing = try upToDate(work, context: context) else { return nil }
        work.thumbnail = existing
        return .skipped("up to date", input: work.lookHash, output: existing.fileHash)
    }

    public func run(_ work: inout PhotoWork, context: StageContext) throws -> StepResult {
        if let skipped = try upToDate(probing: &work, context: context) { return skipped }
        let input = work.lookHash
        // A filtered look's thumbnail brings the original look's in the same geometry, when it is not there yet:
        // the report's "before", from the same decode (docs/report.md, "Where previews come from").
        let before = try !work.recipe.isEmpty && recorded(work, look: work.photo.hash, context: context) == nil
        let (rendered, original): (LookRenderer.Rendered, LookRenderer.Rendered?)
        let source: String?
        if let shared = try work.sharedImage(policy: policy, context: context),
           LookRenderer.sharedServes(width: shared.image.width, height: shared.image.height, geometry: geometry) {
            // Derived from the photo's one decode for several outputs (`SharedDecode`).
            (rendered, original) = try LookRenderer.renderThumbnails(fromShared: shared.image, recipe: work.recipe, geometry: geometry,
                                                                     format: format, quality: quality, failOn: context.failOn,
                                                                     withOriginal: before)
            work.sharedOutputMade()
            source = shared.source
        } else {
            let bytes = try work.originalBytes(catalogueFolder: context.catalogueFolder)
            (rendered, original) = try LookRenderer.renderThumbnails(of: bytes, recipe: work.recipe, geometry: geometry, format: format,
                                                                     quality: quality, failOn: context.failOn, reserve: context.withPixels,
                                                                     withOriginal: before, policy: policy)
            source = rendered.source
        }
        // The before first: the look's thumbnail is the photo's newest.
        if let original { _ = try record(original, of: work, look: work.photo.hash, context: context) }
        let rendition = try record(rendered, of: work, look: input, context: context)
        work.thumbnail = rendition
        return .done(input: input, output: rendition.fileHash, source: source,
                     parameters: scopedParameters(of: work, context: context))
    }

    public func plan(_ work: inout PhotoWork, context: StageContext) throws -> Bool {
        work.thumbnail = try upToDate(work, context: context)
        return work.thumbnail != nil
    }

    /// The recorded thumbnail of `work`'s current look with these options, when its file is intact.
    private func upToDate(_ work: PhotoWork, context: StageContext) throws -> Rendition? {
        try recorded(work, look: work.lookHash, context: context)
    }

    /// The recorded thumbnail of one of the photo's looks (its hash) with these options, when its file is intact.
    private func recorded(_ work: PhotoWork, look: String, context: StageContext) throws -> Rendition? {
        let parametersHash = parametersHash(of: work, context: context)
        let existing = try context.renditions(of: work.photo.id)
            .last { $0.kind == .thumbnail && $0.parametersHash == parametersHash && $0.inputHash == look }
        return existing.flatMap { RenditionFile.isIntact($0, in: context) ? $0 : nil }
    }

    /// Writes a thumbnail of one of the photo's looks into the catalogue's `thumbnails/`, named by these options'
    /// hash and the look's, and records it.
    private func record(_ rendered: LookRenderer.Rendered, of work: PhotoWork, look: String, context: StageContext) throws -> Rendition {
        let photoID = work.photo.id
        let parametersHash = parametersHash(of: work, context: context)
        let path = RenditionFile.path(in: context.catalogueFolder, area: "thumbnails", photo: photoID, parametersHash: parametersHash,
                                      inputHash: look, extension: format.fileExtension)
        let rendition = try RenditionFile.write(rendered, to: path, kind: .thumbnail, photo: photoID,
                                                parametersHash: parametersHash, inputHash: look, context: context)
        try context.catalogue { try $0.record(rendition) }
        return rendition
    }
}
