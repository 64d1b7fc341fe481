import Foundation
import Vips
import Core
import YAML
import Media
import Stages

extension JobBuilder {
    package static let stageNames = StageName.jobStages.map(\.rawValue)

    /// Reads `stages:`, a list of one-key mappings (`- thumbnail: {size: 240x240}`).
    package mutating func readStages(_ node: Node, into job: inout Job) {
        guard let items = node.sequenceValue else {
            reader.error(node, "'stages' must be a list, e.g. '- import: {from: photos}', found \(node.kindDescription)")
            return
        }
        if items.isEmpty { reader.error(node, "'stages' is empty; add at least one stage") }
        var seenNonImport = false
        for item in items {
            if let hint = JobBuilder.misindentedOption(item) {
                reader.error(hint.node, hint.message)
                continue
            }
            guard let entries = item.mappingValue, entries.count == 1, let name = entries[0].key.keyText else {
                reader.error(item, "each stage is a mapping with one key, the stage's name (import, filter, thumbnail or export)")
                continue
            }
            let keyNode = entries[0].key, options = entries[0].value
            switch StageName(rawValue: name) {
            case .import:
                if job.importStage != nil { reader.error(keyNode, "a job has at most one import stage; list several folders in its 'from'") }
                else if seenNonImport { reader.error(keyNode, "import must be the first stage: photos are imported before anything else happens to them") }
                job.importStage = readImport(options)
            case .filter:
                seenNonImport = true
                if let stage = readFilter(options) { job.stages.append(stage) }
            case .thumbnail:
                seenNonImport = true
                if let stage = readThumbnail(options) { job.stages.append(stage) }
            case .export:
                seenNonImport = true
                if let stage = readExport(options, after: job.stages) { job.stages.append(stage) }
            case .caption, nil:  // `caption` is `album caption`'s step, not a stage a job lists
                var message = "unknown stage '\(name)'"
                if let near = Suggest.nearest(to: name, in: JobBuilder.stageNames) { message += "; did you mean '\(near)'?" }
                else { message += "; the stages are import, filter, thumbnail and export" }
                reader.error(keyNode, message)
            }
        }
    }

    /// `- import:` with its options at the stage name's own indentation (`from:` under `import`, not further in): YAML
    /// reads them as more keys of the item, so the item's second key is where the mistake is, and the hint says how
    /// to indent it.
    package static func misindentedOption(_ item: Node) -> (node: Node, message: String)? {
        guard let entries = item.mappingValue, entries.count > 1, let name = entries[0].key.keyText,
              stageNames.contains(name), entries[0].value.isNull, let option = entries[1].key.keyText else { return nil }
        return (entries[1].key, "'\(option)' lines up with '\(name)', so it is read as a second key of this list item, not as "
                + "one of \(name)'s options: indent '\(option)' (and the options after it) further than '\(name)', "
                + "e.g. '- \(name):' then '    \(option): …' on the next line, or write '- \(name): {\(option): …}'")
    }

    private mutating func readImport(_ node: Node) -> ImportStage? {
        guard let entries = reader.mapping(node, "import") else { return nil }
        checkOptionKeys(entries, of: ImportStage.self, in: "import")
        var stage = ImportStage()
        readOptions(entries, into: &stage, in: "import")
        if !entries.contains(where: { $0.0 == "from" }) {
            reader.error(node, "import needs 'from': the folder (or list of folders) to import photos from")
        }
        return stage
    }

    private mutating func readFilter(_ node: Node) -> FilterStage? {
        guard let entries = reader.mapping(node, "filter") else { return nil }
        checkOptionKeys(entries, of: FilterStage.self, in: "filter")
        var stage = FilterStage()
        let value = { (key: String) in entries.first { $0.0 == key }?.2 }
        let presetName = value("preset").flatMap { reader.string($0, "filter.preset") } ?? "none"
        let tuning = FilterStage.options.compactMap { option -> (key: String, preset: String, primitive: any FilterPrimitive.Type)? in
            guard case .tuning(let preset, let primitive) = option.kind else { return nil }
            return (option.key, preset, primitive)
        }
        for t in tuning where value(t.key) != nil && presetName != t.preset {
            reader.error(entries.first { $0.0 == t.key }!.1, "'\(t.key)' applies to the \(t.preset) preset only")
        }
        if presetName == "none" {
            stage.preset = Preset(name: "none", recipe: .original)
        } else if let t = tuning.first(where: { $0.preset == presetName }) {
            var arguments = FilterArguments()
            let main = t.primitive.mainParameter
            if let node = value(t.key) {
                arguments.values[main.name] = readArgument(node, filter: t.preset, main, what: "filter.\(t.key)")
            }
            stage.preset = Preset(name: presetName, recipe: Recipe([t.primitive.make(arguments)]))
        } else if let preset = presets[presetName] {
            stage.preset = preset
        } else {
            let known = Preset.builtInNames + presets.keys.sorted()
            var message = "unknown preset '\(presetName)'"
            if let near = Suggest.nearest(to: presetName, in: known) { message += "; did you mean '\(near)'?" }
            else { message += "; presets are \(known.joined(separator: ", "))" }
            reader.error(value("preset")!, message)
        }
        readOptions(entries, into: &stage, in: "filter")
        return stage
    }

    private mutating func readThumbnail(_ node: Node) -> ThumbnailStage? {
        guard let entries = reader.mapping(node, "thumbnail") else { return nil }
        checkOptionKeys(entries, of: ThumbnailStage.self, in: "thumbnail")
        var stage = ThumbnailStage()
        readOptions(entries, into: &stage, in: "thumbnail")
        return stage
    }

    private mutating func readExport(_ node: Node, after earlier: [any PhotoStage]) -> ExportStage? {
        guard let entries = reader.mapping(node, "export") else { return nil }
        checkOptionKeys(entries, of: ExportStage.self, in: "export")
        guard let toNode = entries.first(where: { $0.0 == "to" })?.2 else {
            reader.error(node, "export needs 'to': a path template such as \"out/{taken:yyyy}/{name}.jpg\"")
            return nil
        }
        guard let text = reader.string(toNode, "export.to") else { return nil }
        let template: PathTemplate
        do { template = try PathTemplate(text, relativeTo: folder) } catch {
            reader.error(toNode, "export.to: \(error)")
            return nil
        }
        var stage = ExportStage(to: template)
        readOptions(entries, into: &stage, in: "export")
        if stage.from == .thumbnail, !earlier.contains(where: { $0 is ThumbnailStage }),
           let fromNode = entries.first(where: { $0.0 == "from" })?.2 {
            reader.error(fromNode, "export from: thumbnail needs a thumbnail stage before this export")
        }
        // The file's extension and its format agree: a format left out follows the extension; a contradiction is
        // an error (JPEG bytes in a .png would open as garbage or not at all).
        let ext = (text as NSString).pathExtension
        let formatNode = entries.first(where: { $0.0 == "format" })?.2
        if !ext.contains("{"), let named = OutputFormat(fileExtension: ext) {
            if let formatNode {
                if let format = formatNode.stringValue.flatMap(OutputFormat.init(rawValue:)), format != named {
                    reader.error(formatNode, "export.format is \(format.rawValue) but export.to ends in '.\(ext)'; make them agree, or leave format out to follow the extension")
                }
            } else {
                stage.format = named
            }
        } else if formatNode == nil, stage.from == .thumbnail,
                  let thumbnail = earlier.last(where: { $0 is ThumbnailStage }) as? ThumbnailStage {
            // Neither says: a thumbnail's export writes the thumbnail's format (its file copied), and `{ext}` names it.
            stage.format = thumbnail.format
        }
        return stage
    }

    /// `240x240` → (240, 240), and `240` → (240, 240), a square as vipsthumbnail's `-s 240`; zero, negative or
    /// malformed sizes are errors.
    package mutating func readSize(_ node: Node, _ what: String) -> (Int, Int)? {
        // A bare number reaches here resolved by YAML, so it is read as written: `240` is a square, and `0x240`
        // (a hexadecimal number to YAML) is the size it looks like, with a width of 0.
        let written = node.intValue != nil ? reader.writtenText(of: node) : node.stringValue
        guard let text = written else {
            reader.error(node, "\(what) must be WIDTHxHEIGHT or one number for a square, e.g. 240x160 or 240, found \(node.kindDescription)")
            return nil
        }
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let w = Int(parts[0]), let h = Int(parts[parts.count - 1]) else {
            reader.error(node, "\(what) must be WIDTHxHEIGHT or one number for a square, e.g. 240x160 or 240, found '\(text)'")
            return nil
        }
        guard (1...16384).contains(w), (1...16384).contains(h) else {
            reader.error(node, "\(what) must have a width and height from 1 to 16384, found '\(text)'")
            return nil
        }
        return (w, h)
    }
}
