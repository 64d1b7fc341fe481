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
        var arguments = FilterArguments()
        if value.isNull {
        } else if value.mappingValue == nil && value.sequenceValue == nil {
            arguments.values[spec.main] = readArgument(value, filter: name, parameter: spec.main, spec.parameters[spec.main]!)
        } else if let options = reader.mapping(value, "filter '\(name)'") {
            reader.checkKeys(options, allowed: spec.parameters.keys.sorted(), in: "filter '\(name)'")
            for (key, _, option) in options {
                if let kind = spec.parameters[key] { arguments.values[key] = readArgument(option, filter: name, parameter: key, kind) }
            }
        }
        return Recipe.primitives[name]!(arguments)
    }

    /// One parameter of a filter step, checked against its kind and range.
    private mutating func readArgument(_ node: Node, filter: String, parameter: String, _ kind: FilterSpec.Kind) -> FilterArguments.Value? {
        let what = "\(filter)'s \(parameter)"
        switch kind {
        case .number(let range):
            return reader.double(node, what, in: range).map { .number($0) }
        case .integer(let range):
            guard let value = reader.int(node, what, in: range) else { return nil }
            return .number(Double(value))
        case .colour:
            guard let text = node.stringValue, let colour = RGBColour(hex: text) else {
                let found = node.stringValue.map { "'\($0)'" } ?? node.kindDescription
                reader.error(node, "\(what) must be a colour written \"#rrggbb\" (in quotes: # starts a YAML comment), found \(found)")
                return nil
            }
            return .colour(colour)
        }
    }
}

/// A filter primitive's parameters as the job file sees them: the main one (for the short form `{sepia: 0.3}`) and
/// every parameter's kind and range. Out-of-range values are job-file errors.
struct FilterSpec {
    enum Kind {
        case number(ClosedRange<Double>)
        case integer(ClosedRange<Int>)
        /// `#rrggbb`
        case colour
    }

    let main: String
    let parameters: [String: Kind]

    /// The range of a number parameter.
    func range(of parameter: String) -> ClosedRange<Double>? {
        if case .number(let range)? = parameters[parameter] { return range }
        return nil
    }

    static let all: [String: FilterSpec] = [
        Sepia.name: FilterSpec(main: "amount", parameters: ["amount": .number(0...1)]),
        Noir.name: FilterSpec(main: "contrast", parameters: ["contrast": .number(0...1)]),
        Vivid.name: FilterSpec(main: "amount", parameters: ["amount": .number(0...2)]),
        Grayscale.name: FilterSpec(main: "amount", parameters: ["amount": .number(0...1)]),
        Saturation.name: FilterSpec(main: "amount", parameters: ["amount": .number(0...3)]),
        Brightness.name: FilterSpec(main: "amount", parameters: ["amount": .number(0...3)]),
        Contrast.name: FilterSpec(main: "amount", parameters: ["amount": .number(0...3)]),
        Gamma.name: FilterSpec(main: "gamma", parameters: ["gamma": .number(0.1...10)]),
        Tint.name: FilterSpec(main: "colour", parameters: ["colour": .colour, "amount": .number(0...1)]),
        Vignette.name: FilterSpec(main: "amount", parameters: ["amount": .number(0...1)]),
        Grain.name: FilterSpec(main: "amount", parameters: ["amount": .number(0...1), "seed": .integer(0...Int(Int32.max))]),
        Sharpen.name: FilterSpec(main: "sigma", parameters: ["sigma": .number(0.3...10)]),
        Blur.name: FilterSpec(main: "sigma", parameters: ["sigma": .number(0...1)]),
    ]
}
