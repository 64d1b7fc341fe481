import Foundation
import Vips
import YAML
import Catalogue
import Media

extension ExportStage: RegisteredStage {
    public static let renditionKinds: [Rendition.Kind] = [.export]

    /// An `export from: image` with a `max-size` can derive from the photo's shared decode.
    public var sharedDecodeUse: SharedDecodeUse? { from == .image ? maxSize.map { .bounded($0) } : nil }
    /// Each name the photo is known by gets its own file when the template is over a path (`targets(of:)`).
    public var writesEachPath: Bool { true }
    public var outputRoot: String? { to.root }
    public var outputFormat: OutputFormat? { from == .motion || from == .original ? nil : format }

    /// `- export: {to: "out/{name}.jpg"}`: the template (required), the options its table declares, and the format
    /// agreeing with the template's extension; `from: thumbnail` needs a stage before it that writes thumbnails.
    package static func read<File: StageFileReading>(_ node: Node, from file: inout File, after earlier: [any PhotoStage]) -> ExportStage? {
        guard let entries = file.reader.mapping(node, "export") else { return nil }
        file.checkOptionKeys(entries, of: ExportStage.self, in: "export")
        guard let toNode = entries.first(where: { $0.0 == "to" })?.2 else {
            file.reader.error(node, "export needs 'to': a path template such as \"out/{taken:yyyy}/{name}.jpg\"")
            return nil
        }
        guard let text = file.reader.string(toNode, "export.to") else { return nil }
        let template: PathTemplate
        do { template = try PathTemplate(text, relativeTo: file.folder) } catch {
            file.reader.error(toNode, "export.to: \(error)")
            return nil
        }
        var stage = ExportStage(to: template)
        file.readOptions(entries, into: &stage, in: "export")
        let thumbnail = earlier.last { type(of: $0).renditionKinds.contains(.thumbnail) }
        if stage.from == .thumbnail, thumbnail == nil, let fromNode = entries.first(where: { $0.0 == "from" })?.2 {
            file.reader.error(fromNode, "export from: thumbnail needs a thumbnail stage before this export")
        }
        if stage.from == .motion {
            // A Motion Photo's movie is copied as it is: an MP4, whatever `format:` or an image extension would say.
            let ext = (text as NSString).pathExtension.lowercased()
            if let formatNode = entries.first(where: { $0.0 == "format" })?.2 {
                file.reader.error(formatNode, "export.format does not apply to from: motion: the movie is copied as it is, an MP4 (`{ext}` is mp4); leave format out")
            } else if !ext.contains("{"), ImageFormat.written(fileExtension: ext) != nil {
                file.reader.error(toNode, "export from: motion writes the movie, an MP4, but export.to ends in '.\(ext)'; end it in .mp4 or {ext}")
            }
            return stage
        }
        if stage.from == .original {
            // The original is copied as it is, in its own format: `{ext}` is its extension.
            if let formatNode = entries.first(where: { $0.0 == "format" })?.2 {
                file.reader.error(formatNode, "export.format does not apply to from: original: each original is copied as it is, in its own format (`{ext}` is its extension); leave format out")
            }
            if let metadataNode = entries.first(where: { $0.0 == "metadata" })?.2 {
                // Silently keeping GPS that a `metadata: strip-gps` asked to remove would be a privacy trap.
                file.reader.error(metadataNode, "export.metadata does not apply to from: original: each original is copied as it is, its metadata (GPS included) with it; leave metadata out, or export from: image to strip it")
            }
            return stage
        }
        // The file's extension and its format agree: a format left out follows the extension; a contradiction is
        // an error (JPEG bytes in a .png would open as garbage or not at all).
        let ext = (text as NSString).pathExtension
        let formatNode = entries.first(where: { $0.0 == "format" })?.2
        if !ext.contains("{"), let named = ImageFormat.written(fileExtension: ext) {
            if let formatNode {
                if let format = formatNode.stringValue.flatMap(OutputFormat.init(rawValue:)), format != named {
                    file.reader.error(formatNode, "export.format is \(format.rawValue) but export.to ends in '.\(ext)'; make them agree, or leave format out to follow the extension")
                }
            } else {
                stage.format = named
            }
        } else if formatNode == nil, stage.from == .thumbnail, let format = thumbnail?.outputFormat {
            // Neither says: a thumbnail's export writes the thumbnail's format (its file copied), and `{ext}` names it.
            stage.format = format
        }
        return stage
    }
}
