/// A small, regular argument reader in the shape of swift-argument-parser: flags, options with values, positionals.
struct Arguments {
    private var items: [String]

    init(_ items: [String]) { self.items = items }

    /// Removes `--name` (or a short alias) and says whether it was there.
    mutating func flag(_ names: String...) -> Bool {
        guard let index = items.firstIndex(where: { names.contains($0) }) else { return false }
        items.remove(at: index)
        return true
    }

    /// Removes `--name VALUE` or `--name=VALUE` and returns VALUE.
    mutating func option(_ name: String) throws -> String? {
        var found: String?
        while let index = items.firstIndex(where: { $0 == name || $0.hasPrefix(name + "=") }) {
            if items[index] == name {
                guard index + 1 < items.count else { throw UsageError("\(name) needs a value") }
                found = items[index + 1]
                items.removeSubrange(index...(index + 1))
            } else {
                found = String(items[index].dropFirst(name.count + 1))
                items.remove(at: index)
            }
        }
        return found
    }

    /// Every `--name VALUE` (or `--name=VALUE`) occurrence, in order.
    mutating func options(_ name: String) throws -> [String] {
        var values: [String] = []
        var index = 0
        while index < items.count {
            if items[index] == name {
                guard index + 1 < items.count else { throw UsageError("\(name) needs a value") }
                values.append(items[index + 1])
                items.removeSubrange(index...(index + 1))
            } else if items[index].hasPrefix(name + "=") {
                values.append(String(items[index].dropFirst(name.count + 1)))
                items.remove(at: index)
            } else {
                index += 1
            }
        }
        return values
    }

    /// What is left, after checking that no unknown `--option` remains.
    mutating func positionals() throws -> [String] {
        var result: [String] = []
        var literal = false
        for item in items {
            if literal || item == "-" || !item.hasPrefix("-") { result.append(item); continue }
            if item == "--" { literal = true; continue }
            throw UsageError("unknown option '\(item)'")
        }
        items = []
        return result
    }
}
