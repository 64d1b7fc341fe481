extension JobBuilder {
    static let selectKeys = ["taken", "added", "filter", "path", "caption", "camera", "format", "missing", "failed"]

    /// Reads a `select:` mapping (the job's, or a stage's own).
    mutating func readSelection(_ node: Node, _ what: String) -> Selection? {
        guard let entries = reader.mapping(node, what) else { return nil }
        reader.checkKeys(entries, allowed: JobBuilder.selectKeys, in: what)
        var selection = Selection()
        for (key, _, value) in entries {
            switch key {
            case "taken", "added":
                guard let text = reader.string(value, "\(what).\(key) (a date like 2024-06-01 or a range like 2024-06-01..2024-08-31)") else { continue }
                do {
                    let range = try DateRange(parsing: text)
                    if key == "taken" { selection.taken = range } else { selection.added = range }
                } catch {
                    reader.error(value, "\(what).\(key): \(error)")
                }
            case "filter": selection.filter = reader.string(value, "\(what).filter")
            case "path": selection.path = reader.string(value, "\(what).path").map { Paths.absolute($0, relativeTo: folder) }
            case "caption": selection.caption = reader.string(value, "\(what).caption")
            case "camera": selection.camera = reader.string(value, "\(what).camera")
            case "format": selection.format = reader.choice(value, "\(what).format", ImageFormat.self)?.rawValue
            case "missing": selection.missing = reader.choice(value, "\(what).missing", Selection.Missing.self)
            case "failed": selection.failed = reader.choice(value, "\(what).failed", Selection.Failed.self)
            default: break
            }
        }
        return selection
    }

    /// Reads `presets:`: names mapped to lists of filter steps, `[{sepia: 0.3}, {noir: {contrast: 0.5}}]`.
    mutating func readPresets(_ node: Node) {
        guard let entries = reader.mapping(node, "presets") else { return }
        for (name, keyNode, value) in entries {
            if Preset.builtInNames.contains(name) {
                reader.error(keyNode, "preset '\(name)' is built in; give your preset another name")
                continue
            }
            guard let steps = value.sequenceValue else {
                reader.error(value, "preset '\(name)' must be a list of filter steps, e.g. [{sepia: 0.3}], found \(value.kindDescription)")
                continue
            }
            var primitives: [any FilterPrimitive] = []
            for step in steps {
                if let primitive = readPrimitive(step) { primitives.append(primitive) }
            }
            presets[name] = Preset(name: name, recipe: Recipe(primitives))
        }
    }

    /// One filter step: `{sepia: 0.3}` (its main parameter) or `{sepia: {amount: 0.3}}`.
    private mutating func readPrimitive(_ node: Node) -> (any FilterPrimitive)? {
        guard let entries = node.mappingValue, entries.count == 1, let name = entries[0].key.keyText else {
            reader.error(node, "a filter step is a mapping with one key, e.g. {sepia: 0.3}, found \(node.kindDescription)")
            return nil
        }
        let value = entries[0].value
        guard let spec = FilterSpec.all[name] else {
            var message = "unknown filter '\(name)'"
            if let near = Suggest.nearest(to: name, in: Array(FilterSpec.all.keys)) { message += "; did you mean '\(near)'?" }
            else { message += "; available filters are \(FilterSpec.all.keys.sorted().joined(separator: ", "))" }
            reader.error(entries[0].key, message)
            return nil
        }
        var parameters: [String: Double] = [:]
        if value.isNull {
        } else if value.doubleValue != nil {
            parameters[spec.main] = reader.double(value, "\(name)'s \(spec.main)", in: spec.ranges[spec.main]!)
        } else if let options = reader.mapping(value, "filter '\(name)'") {
            reader.checkKeys(options, allowed: spec.ranges.keys.sorted(), in: "filter '\(name)'")
            for (key, _, option) in options {
                if let range = spec.ranges[key] { parameters[key] = reader.double(option, "\(name)'s \(key)", in: range) }
            }
        }
        return Recipe.primitives[name]!(parameters)
    }
}

/// A filter primitive's parameters as the job file sees them: the main one (for the short form) and every range.
struct FilterSpec {
    let main: String
    let ranges: [String: ClosedRange<Double>]

    static let all: [String: FilterSpec] = [
        Sepia.name: FilterSpec(main: "amount", ranges: ["amount": 0...1]),
        Noir.name: FilterSpec(main: "contrast", ranges: ["contrast": 0...1]),
        Vivid.name: FilterSpec(main: "amount", ranges: ["amount": 0...2]),
    ]
}
