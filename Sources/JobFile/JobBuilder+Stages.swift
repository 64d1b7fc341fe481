import Foundation
import Vips
import YAML
import Stages

extension JobBuilder: StageFileReading {
    /// The stages a job file may list, in order: the registry's names (`StageRegistry`).
    static var stageNames: [String] { StageRegistry.names.map(\.rawValue) }

    /// The names of the stages this builder reads, in order.
    var stageNames: [String] { registry.map { $0.stage.rawValue } }

    /// Reads `stages:`, a list of one-key mappings (`- thumbnail: {size: 240x240}`), each by the reader of the stage
    /// the registry has under that name.
    mutating func readStages(_ node: Node, into job: inout Job) {
        guard let items = node.sequenceValue else {
            reader.error(node, "'stages' must be a list, e.g. '- import: {from: photos}', found \(node.kindDescription)")
            return
        }
        if items.isEmpty { reader.error(node, "'stages' is empty; add at least one stage") }
        var seenPhotoStage = false
        for item in items {
            if let hint = JobBuilder.misindentedOption(item) {
                reader.error(hint.node, hint.message)
                continue
            }
            guard let entries = item.mappingValue, entries.count == 1, let name = entries[0].key.keyText else {
                reader.error(item, "each stage is a mapping with one key, the stage's name (\(stageList(or: true)))")
                continue
            }
            let keyNode = entries[0].key, options = entries[0].value
            guard let registered = StageRegistry.stage(named: name, in: registry) else {  // `caption` is `album caption`'s step, not a stage a job lists
                var message = "unknown stage '\(name)'"
                if let near = Suggest.nearest(to: name, in: stageNames) { message += "; did you mean '\(near)'?" }
                else { message += "; the stages are \(stageList(or: false))" }
                reader.error(keyNode, message)
                continue
            }
            if registered is any PhotoSource.Type {
                if job.importStage != nil { reader.error(keyNode, "a job has at most one \(name) stage; list several folders in its 'from'") }
                else if seenPhotoStage { reader.error(keyNode, "\(name) must be the first stage: photos are imported before anything else happens to them") }
            } else {
                seenPhotoStage = true
            }
            switch registered.read(options, from: &self, after: job.stages) {
            case let source as any PhotoSource: job.importStage = source
            case let stage as any PhotoStage: job.stages.append(stage)
            default: break  // not read: its errors are recorded
            }
        }
    }

    /// "import, filter, thumbnail or export" (`or: true`), "… and export": the registry's names in words.
    func stageList(or: Bool) -> String {
        let names = stageNames
        return names.dropLast().joined(separator: ", ") + (names.count > 1 ? (or ? " or " : " and ") : "") + (names.last ?? "")
    }

    /// `- import:` with its options at the stage name's own indentation (`from:` under `import`, not further in): YAML
    /// reads them as more keys of the item, so the item's second key is where the mistake is, and the hint says how
    /// to indent it.
    static func misindentedOption(_ item: Node) -> (node: Node, message: String)? {
        guard let entries = item.mappingValue, entries.count > 1, let name = entries[0].key.keyText,
              stageNames.contains(name), entries[0].value.isNull, let option = entries[1].key.keyText else { return nil }
        return (entries[1].key, "'\(option)' lines up with '\(name)', so it is read as a second key of this list item, not as "
                + "one of \(name)'s options: indent '\(option)' (and the options after it) further than '\(name)', "
                + "e.g. '- \(name):' then '    \(option): …' on the next line, or write '- \(name): {\(option): …}'")
    }

    /// `240x240` → (240, 240), and `240` → (240, 240), a square as vipsthumbnail's `-s 240`; zero, negative or
    /// malformed sizes are errors.
    mutating func readSize(_ node: Node, _ what: String) -> (Int, Int)? {
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
