import YAML
import Catalogue
import Media

extension FilterStage: RegisteredStage {
    public static let renditionKinds: [Rendition.Kind] = [.filtered]

    /// The look, recorded in `runs.stages` so that prune keeps the renditions of current looks.
    public var appliedLook: String? { preset.recipe.canonical.text }
    public var appliedKeep: String? { keep.rawValue }

    /// `- filter: {preset: sepia, intensity: 0.5}`: the preset (built in, or one of the job's `presets:`), a built-in
    /// preset's tuning, and the options its table declares.
    package static func read<File: StageFileReading>(_ node: Node, from file: inout File, after _: [any PhotoStage]) -> FilterStage? {
        guard let entries = file.reader.mapping(node, "filter") else { return nil }
        file.checkOptionKeys(entries, of: FilterStage.self, in: "filter")
        var stage = FilterStage()
        let value = { (key: String) in entries.first { $0.0 == key }?.2 }
        let presetName = value("preset").flatMap { file.reader.string($0, "filter.preset") } ?? "none"
        let tuning = FilterStage.options.compactMap { option -> (key: String, preset: String, primitive: any FilterPrimitive.Type)? in
            guard case .tuning(let preset, let primitive) = option.kind else { return nil }
            return (option.key, preset, primitive)
        }
        for t in tuning where value(t.key) != nil && presetName != t.preset {
            file.reader.error(entries.first { $0.0 == t.key }!.1, "'\(t.key)' applies to the \(t.preset) preset only")
        }
        if presetName == "none" {
            stage.preset = Preset(name: "none", recipe: .original)
        } else if let t = tuning.first(where: { $0.preset == presetName }) {
            var arguments = FilterArguments()
            let main = t.primitive.mainParameter
            if let node = value(t.key) {
                arguments.values[main.name] = file.readArgument(node, filter: t.preset, main, what: "filter.\(t.key)")
            }
            stage.preset = Preset(name: presetName, recipe: Recipe([t.primitive.make(arguments)]))
        } else if let preset = file.presets[presetName] {
            stage.preset = preset
        } else {
            let known = Preset.builtInNames + file.presets.keys.sorted()
            var message = "unknown preset '\(presetName)'"
            if let near = Suggest.nearest(to: presetName, in: known) { message += "; did you mean '\(near)'?" }
            else { message += "; presets are \(known.joined(separator: ", "))" }
            file.reader.error(value("preset")!, message)
        }
        file.readOptions(entries, into: &stage, in: "filter")
        return stage
    }
}
