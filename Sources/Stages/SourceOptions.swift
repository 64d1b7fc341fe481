import Core
import Media

/// `raw:` on the stages that render: which image of a camera RAW a rendering starts from.
public enum RawSource: String, Sendable, CaseIterable {
    /// The largest embedded JPEG preview when it is at least the rendition's size, else libraw's decode.
    case preview
    /// Always libraw's decode of the sensor data.
    case decode
}

/// `embedded-thumbnail:` on the stages that render: whether a HEIF/AVIF file's embedded thumbnail may serve.
public enum EmbeddedThumbnailUse: String, Sendable, CaseIterable {
    /// When it is at least the rendition's size on the side the fit needs; else the primary image.
    case use
    /// Always the primary image.
    case ignore
}

extension SourcePolicy {
    /// The policy a stage's `raw:`, `embedded-thumbnail:` and `poster:` give.
    public init(raw: RawSource, embeddedThumbnail: EmbeddedThumbnailUse, poster: PosterTime = .auto) {
        self.init(rawPreview: raw == .preview, embeddedThumbnail: embeddedThumbnail == .use, poster: poster)
    }
}

extension DeclaredOptions where Self: JobStage {
    /// The hash of this stage's parameters for a rendition of `work`'s photo (`parameters(for:)`): the run's prepared
    /// hash unless an option is scoped to the photo's format (a RAW's `raw:`, a HEIF's `embedded-thumbnail:`, a
    /// video's `poster:` when it is not `auto`).
    func parametersHash(of work: PhotoWork, context: StageContext) -> String {
        scopedParameters(of: work, context: context)?.hash ?? context.parametersHash(stage: Self.stage, parameters: parameters)
    }

    /// This stage's parameters for `work`'s photo when an option is scoped to its format (`parameters(for:)`); nil
    /// when they are the stage's own. The step records them (`StepResult.parameters`).
    func scopedParameters(of work: PhotoWork, context: StageContext) -> StageParameters? {
        guard let format = ImageFormat(rawValue: work.photo.format),
              Self.options.contains(where: { $0.scope?.includes(format) == true }) else { return nil }
        // A video's `poster: auto` is not recorded (`StageOption.Kind.poster`): its parameters are the stage's own.
        let scoped = parameters(for: format)
        guard scoped != parameters else { return nil }
        return StageParameters(stage: Self.stage, parameters: scoped, software: context.software)
    }
}

extension StepResult {
    /// A done step that says what its rendition was made from, when not the original itself as libvips reads it
    /// ("from the embedded preview (1024×683)", "decoded by libraw 0.20.2"), and the parameters it applied when they
    /// are the photo's own (`scopedParameters`).
    static func done(input: String?, output: String?, source: String?, parameters: StageParameters?) -> StepResult {
        var result = StepResult(status: .done, inputHash: input, outputHash: output, message: source)
        result.parameters = parameters?.text
        return result
    }
}
