import Core
import Media

/// A stage whose options are declared in one table: `parameters` is read from it, and so are the job file's keys
/// and the docs.
public protocol DeclaredOptions: Sendable {
    /// Every option in order: the order of the job file's "valid keys" and of the recorded parameters.
    static var options: [StageOption<Self>] { get }
}

extension DeclaredOptions {
    /// Every option with its value, defaults included, but the options scoped to some photos (`StageOption.scope`):
    /// recorded as the step's parameters and hashed.
    public var parameters: JSONValue { .object(Self.options.filter { $0.scope == nil }.flatMap { $0.parameters(of: self) }) }

    /// The parameters of a rendition of a photo in `format`: `parameters`, and the options scoped to photos of that
    /// format (a camera RAW's `raw:`) in their place in the table.
    public func parameters(for format: ImageFormat?) -> JSONValue {
        .object(Self.options.filter { option in option.scope.map { scope in format.map(scope.includes) ?? false } ?? true }
            .flatMap { $0.parameters(of: self) })
    }

}

extension JobStage where Self: DeclaredOptions {
    /// Every distinct `parameters(for:)` over the registered formats, `parameters` first: what a run applies, for
    /// prune to keep (`runs.stages`).
    public var parameterVariants: [JSONValue] {
        var variants = [parameters]
        for format in ImageFormat.registered where !variants.contains(parameters(for: format)) {
            variants.append(parameters(for: format))
        }
        return variants
    }
}

/// The photos a scoped stage option (`StageOption.scope`) applies to.
public enum OptionScope: Sendable, Equatable {
    /// Camera RAWs (`ImageFormat.isRaw`): `raw: preview | decode`.
    case cameraRaw
    /// Formats with an embedded thumbnail libvips can load (HEIF, AVIF): `embedded-thumbnail: use | ignore`.
    case embeddedThumbnail
    /// Videos (`ImageFormat.Kind.video`): `poster: auto | 25% | 3s`.
    case video

    public func includes(_ format: ImageFormat) -> Bool {
        switch self {
        case .cameraRaw: format.isRaw
        case .embeddedThumbnail: format.embedded == .thumbnail
        case .video: format.kind == .video
        }
    }
}
