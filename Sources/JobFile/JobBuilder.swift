import Foundation
import Core
import YAML
import Media
import Stages

/// Builds a `Job` from a parsed document, one key at a time, recording schema errors in `reader`.
package struct JobBuilder {
    package var reader: SchemaReader
    /// The job file's folder: relative paths in the job are relative to it.
    package let folder: String
    package var variables: [String: String] = [:]
    package var presets: [String: Preset] = [:]
    /// The stages `stages:` may list: the registry's (a test adds one of its own).
    var registry: [any RegisteredStage.Type] = StageRegistry.registered

    package init(reader: SchemaReader, folder: String) {
        self.reader = reader
        self.folder = folder
    }

    package mutating func build(root: Node, path: String, hash: String, set: [String: String], environment: [String: String]) -> Job? {
        guard let top = reader.mapping(root, "a job file") else { return nil }
        reader.checkKeys(top, allowed: JobLoader.topKeys, in: "the job")
        let value = { (key: String) in top.first { $0.0 == key }?.2 }
        let keyNode = { (key: String) in top.first { $0.0 == key }?.1 }

        if let node = value("version") {
            if let version = reader.int(node, "version", in: 1...1000), version != 1 {
                reader.error(node, "this album reads job files of version 1, found version \(version)")
            }
        } else if !top.isEmpty {
            reader.error(at: SourceLocation(line: 1, column: 1), "missing required key 'version'; add 'version: 1' at the top")
        }
        readVariables(value("vars"), set: set, environment: environment)
        let root = expand(root)
        let topExpanded = reader.mapping(root, "a job file") ?? []
        let node = { (key: String) in topExpanded.first { $0.0 == key }?.2 }

        let name = node("name").flatMap { reader.string($0, "name") }
            ?? ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        let catalogue = node("catalogue").flatMap { reader.string($0, "catalogue") }
            .map { Paths.absolute($0, relativeTo: folder) } ?? Paths.absolute("album", relativeTo: folder)
        var workers: Int?
        if let w = node("workers") {
            if w.stringValue == "auto" { workers = nil } else { workers = reader.int(w, "workers (a number or auto)", in: 1...256) }
        }
        if let p = node("presets") { readPresets(p) }
        let select = node("select").flatMap { readSelection($0, "select") }
        var job = Job(name: name, catalogue: catalogue, workers: workers, select: select, path: path, hash: hash)
        job.catalogueIsDefault = node("catalogue") == nil
        if let r = node("report"), let report = reader.string(r, "report (a path to an .html file)") {
            job.report = Paths.absolute(report, relativeTo: folder)
        }
        guard let stagesNode = node("stages") else {
            reader.error(keyNode("version") ?? root, "missing required key 'stages': list the stages, e.g. '- import: {from: photos}'")
            return nil
        }
        readStages(stagesNode, into: &job)
        return job
    }

    // MARK: Variables

    private mutating func readVariables(_ node: Node?, set: [String: String], environment: [String: String]) {
        var values = environment
        if let node, let entries = reader.mapping(node, "vars") {
            for (key, keyNode, value) in entries {
                guard key.range(of: #"^[A-Za-z_][A-Za-z0-9_]*$"#, options: .regularExpression) != nil else {
                    reader.error(keyNode, "variable name '\(key)' must be letters, digits and underscores, not starting with a digit")
                    continue
                }
                switch value.value {
                case .string(let s): values[key] = s
                case .int(let i): values[key] = String(i)
                case .float, .bool: values[key] = value.keyText ?? ""
                default: reader.error(value, "variable '\(key)' must be a string or a number, found \(value.kindDescription)")
                }
            }
        }
        values.merge(set) { _, new in new }
        variables = values
    }

    /// Replaces `${NAME}` in every string; an undefined name is an error at the string.
    private mutating func expand(_ node: Node) -> Node {
        var node = node
        switch node.value {
        case .string(let text) where text.contains("${"):
            node.value = .string(substitute(text, at: node))
        case .sequence(let items):
            node.value = .sequence(items.map { expand($0) })
        case .mapping(let entries):
            node.value = .mapping(entries.map { Node.Entry(key: $0.key, value: expand($0.value)) })
        default: break
        }
        return node
    }

    private mutating func substitute(_ text: String, at node: Node) -> String {
        var out = ""
        var rest = Substring(text)
        while let start = rest.range(of: "${") {
            out += rest[..<start.lowerBound]
            guard let end = rest[start.upperBound...].firstIndex(of: "}") else {
                reader.error(node, "'${' is not closed with '}'")
                return text
            }
            let name = String(rest[start.upperBound..<end])
            if let value = variables[name] {
                out += value
            } else {
                reader.error(node, "undefined variable '\(name)': define it under 'vars:', in the environment, or with --set \(name)=VALUE")
            }
            rest = rest[rest.index(after: end)...]
        }
        return out + rest
    }
}
