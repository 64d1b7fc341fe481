/// Reads typed values out of parsed YAML nodes, collecting every schema error instead of stopping at the first.
package struct SchemaReader {
    package let file: String
    package let lines: [String]
    package private(set) var diagnostics: [Diagnostic] = []

    package init(file: String, text: String) {
        self.file = file
        self.lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
            String($0.hasSuffix("\r") ? $0.dropLast() : $0)
        }
    }

    /// Records an error at `node`'s position.
    package mutating func error(_ node: Node, _ message: String) {
        error(at: node.location, message)
    }

    package mutating func error(at location: SourceLocation, _ message: String) {
        let line = lines.indices.contains(location.line - 1) ? lines[location.line - 1] : nil
        diagnostics.append(Diagnostic(file: file, location: location, message: message, sourceLine: line))
    }

    /// A mapping's entries as (key text, key node, value), or an error when `node` is not a mapping.
    package mutating func mapping(_ node: Node, _ what: String) -> [(String, Node, Node)]? {
        if node.isNull { return [] }
        guard let entries = node.mappingValue else {
            error(node, "\(what) must be a mapping of keys to values, found \(node.kindDescription)")
            return nil
        }
        return entries.map { ($0.key.keyText ?? "", $0.key, $0.value) }
    }

    /// Reports every key not in `allowed`, suggesting the nearest valid one.
    package mutating func checkKeys(_ entries: [(String, Node, Node)], allowed: [String], in what: String) {
        for (key, keyNode, _) in entries where !allowed.contains(key) {
            var message = "unknown key '\(key)' in \(what)"
            if let near = Suggest.nearest(to: key, in: allowed) { message += "; did you mean '\(near)'?" }
            else { message += "; valid keys are \(allowed.map { "'\($0)'" }.joined(separator: ", "))" }
            error(keyNode, message)
        }
    }

    package mutating func string(_ node: Node, _ what: String) -> String? {
        guard let text = node.stringValue else {
            error(node, "\(what) must be a string, found \(node.kindDescription)")
            return nil
        }
        return text
    }

    /// A string or a list of strings.
    package mutating func strings(_ node: Node, _ what: String) -> [String]? {
        if let items = node.sequenceValue {
            let values = items.compactMap { string($0, "each item of \(what)") }
            return values.count == items.count ? values : nil
        }
        return string(node, "\(what) (a string or a list of strings)").map { [$0] }
    }

    /// A plain scalar as the file spells it, from `node`'s position to the next space, `,`, `]`, `}` or `#`: the
    /// text behind a number that YAML resolved (`0x240` for the number 576), or nil when the line is not known.
    package func writtenText(of node: Node) -> String? {
        guard lines.indices.contains(node.location.line - 1) else { return nil }
        let scalars = lines[node.location.line - 1].unicodeScalars.dropFirst(node.location.column - 1)
        let text = String(String.UnicodeScalarView(scalars.prefix { !" \t,]}#".unicodeScalars.contains($0) }))
        return text.isEmpty ? nil : text
    }

    package mutating func bool(_ node: Node, _ what: String) -> Bool? {
        guard let value = node.boolValue else {
            error(node, "\(what) must be true or false, found \(node.kindDescription)")
            return nil
        }
        return value
    }

    package mutating func int(_ node: Node, _ what: String, in range: ClosedRange<Int>) -> Int? {
        guard let value = node.intValue else {
            error(node, "\(what) must be a whole number from \(range.lowerBound) to \(range.upperBound), found \(node.kindDescription)")
            return nil
        }
        guard range.contains(value) else {
            error(node, "\(what) must be from \(range.lowerBound) to \(range.upperBound), found \(value)")
            return nil
        }
        return value
    }

    package mutating func double(_ node: Node, _ what: String, in range: ClosedRange<Double>) -> Double? {
        guard let value = node.doubleValue, value.isFinite else {
            error(node, "\(what) must be a number from \(range.lowerBound) to \(range.upperBound), found \(node.kindDescription)")
            return nil
        }
        guard range.contains(value) else {
            error(node, "\(what) must be from \(range.lowerBound) to \(range.upperBound), found \(value)")
            return nil
        }
        return value
    }

    /// One of an enumeration's raw values.
    package mutating func choice<E: RawRepresentable & CaseIterable>(_ node: Node, _ what: String, _: E.Type) -> E? where E.RawValue == String {
        choice(node, what, options: E.allCases.map(\.rawValue)).flatMap(E.init(rawValue:))
    }

    /// One of `options`.
    package mutating func choice(_ node: Node, _ what: String, options: [String]) -> String? {
        guard let text = node.stringValue ?? node.keyText, options.contains(text) else {
            error(node, SchemaReader.notOneOf(what, options, found: node.stringValue, described: node.kindDescription))
            return nil
        }
        return text
    }

    /// `select.format must be one of jpeg, png, …, found 'jpg'; did you mean 'jpeg'?`: the words of a value that is
    /// not one of `options`, the job file's and the command line's alike (`album ls --format jpg`). `found` is the
    /// text given, nil when it was not text (then `described` says what it was).
    package static func notOneOf(_ what: String, _ options: [String], found: String?, described: String = "") -> String {
        var message = "\(what) must be one of \(options.joined(separator: ", ")), found \(found.map { "'\($0)'" } ?? described)"
        if let found, let near = Suggest.nearest(to: found, in: options) { message += "; did you mean '\(near)'?" }
        return message
    }
}

extension Node {
    /// "a string 'x'", "a number", "a list", … for error messages.
    package var kindDescription: String {
        switch value {
        case .null: "nothing (null)"
        case .bool(let b): "the boolean \(b)"
        case .int(let i): "the number \(i)"
        case .float(let d): "the number \(Node.floatText(d))"
        case .string(let s): "the string '\(s)'"
        case .sequence: "a list"
        case .mapping: "a mapping"
        }
    }
}

/// "Did you mean …?" by edit distance.
package enum Suggest {
    /// The candidate closest to `word`, when it is close enough to be a likely typo.
    package static func nearest(to word: String, in candidates: [String]) -> String? {
        let scored = candidates.map { ($0, distance(word.lowercased(), $0.lowercased())) }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
        return best.1 <= max(2, word.count / 3) ? best.0 : nil
    }

    package static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...max(b.count, 1) where j <= b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
