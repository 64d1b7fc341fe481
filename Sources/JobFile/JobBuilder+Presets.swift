import YAML
import Media

extension JobBuilder {
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
        guard let primitive = Recipe.primitives[name] else {
            let names = Recipe.primitives.keys.sorted()
            var message = "unknown filter '\(name)'"
            if let near = Suggest.nearest(to: name, in: names) { message += "; did you mean '\(near)'?" }
            else { message += "; available filters are \(names.joined(separator: ", "))" }
            reader.error(entries[0].key, message)
            return nil
        }
        var arguments = FilterArguments()
        if value.isNull {
        } else if value.mappingValue == nil && value.sequenceValue == nil {
            let main = primitive.mainParameter
            arguments.values[main.name] = readArgument(value, filter: name, main)
        } else if let options = reader.mapping(value, "filter '\(name)'") {
            let parameters = primitive.declaredParameters
            reader.checkKeys(options, allowed: parameters.map(\.name).sorted(), in: "filter '\(name)'")
            for (key, _, option) in options {
                if let parameter = parameters.first(where: { $0.name == key }) {
                    arguments.values[key] = readArgument(option, filter: name, parameter)
                }
            }
        }
        return primitive.make(arguments)
    }

    /// One parameter of a filter step, checked against its kind and range.
    package mutating func readArgument(_ node: Node, filter: String, _ parameter: FilterParameter,
                               what: String? = nil) -> FilterArguments.Value? {
        let what = what ?? "\(filter)'s \(parameter.name)"
        switch parameter.kind {
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
