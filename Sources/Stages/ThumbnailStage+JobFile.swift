import Vips
import YAML
import Catalogue

extension ThumbnailStage: RegisteredStage {
    public static let renditionKinds: [Rendition.Kind] = [.thumbnail]

    /// Every thumbnail can derive from the photo's shared decode when it is large enough (`LookRenderer.sharedServes`).
    public var sharedDecodeUse: SharedDecodeUse? { .any }
    public var outputFormat: OutputFormat? { format }

    /// `- thumbnail: {size: 240}`: the options its table declares.
    package static func read<File: StageFileReading>(_ node: Node, from file: inout File, after _: [any PhotoStage]) -> ThumbnailStage? {
        readDeclared(node, from: &file, into: ThumbnailStage())
    }
}
