import Core
import YAML
import Stages
import Media

extension JobBuilder {
    /// Reports every key of a stage's mapping that its `options` table does not declare.
    package mutating func checkOptionKeys<Stage: DeclaredOptions>(_ entries: [(String, Node, Node)], of _: Stage.Type, in what: String) {
        reader.checkKeys(entries, allowed: Stage.options.filter(\.isKey).map(\.key), in: what)
    }

    /// Reads every entry that `Stage.options` declares into `stage`, checked against its kind and range; an entry
    /// that fails keeps the default (the job then has errors and does not run). Template, preset and tuning
    /// options need the job's folder and presets together, so the stage's own reader reads them.
    package mutating func readOptions<Stage: DeclaredOptions>(_ entries: [(String, Node, Node)], into stage: inout Stage, in what: String) {
        for (key, _, value) in entries {
            guard let option = Stage.options.first(where: { $0.key == key && $0.isKey }) else { continue }
            let name = "\(what).\(key)"
            switch option.kind {
            case .bool(let path): stage[keyPath: path] = reader.bool(value, name) ?? stage[keyPath: path]
            case .flag(let path, let on, let off):
                if let word = reader.string(value, "\(name) (\(on) or \(off))") {
                    if [on, off].contains(word) { stage[keyPath: path] = word == on }
                    else { reader.error(value, "\(name) must be \(on) or \(off), found '\(word)'") }
                }
            case .integer(let path, let range, let unit):
                stage[keyPath: path] = reader.int(value, unit.map { "\(name) (\($0))" } ?? name, in: range) ?? stage[keyPath: path]
            case .optionalInteger(let path, let range): stage[keyPath: path] = reader.int(value, name, in: range)
            case .strings(let path): stage[keyPath: path] = reader.strings(value, name) ?? stage[keyPath: path]
            case .paths(let path): stage[keyPath: path] = (reader.strings(value, name) ?? []).map { Paths.absolute($0, relativeTo: folder) }
            case .choice(let choice):
                if let raw = reader.choice(value, name, options: choice.all) {
                    if choice.allowed.contains(raw) { choice.assign(raw, to: &stage) }
                    else { reader.error(value, "\(name) must be one of \(choice.allowed.joined(separator: ", ")), found '\(raw)'") }
                }
            case .size(let width, let height):
                if let (w, h) = readSize(value, name) { stage[keyPath: width] = w; stage[keyPath: height] = h }
            case .selection(let path): stage[keyPath: path] = readSelection(value, name)
            case .poster(let path):
                // A number YAML resolved (`poster: 3`) is reported as written: it has no unit.
                guard let text = value.stringValue ?? (value.doubleValue == nil ? nil : reader.writtenText(of: value)) else {
                    reader.error(value, "\(name) must be auto, a percentage (25%) or a time (3s), found \(value.kindDescription)")
                    continue
                }
                switch PosterTime.parse(text) {
                case .success(let time): stage[keyPath: path] = time
                case .failure(let error): reader.error(value, "\(name) \(error.message)")
                }
            case .template, .preset, .tuning, .recorded: break
            }
        }
    }
}
