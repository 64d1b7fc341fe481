import YAML

/// One option a command declares, with the type its value is read as: the declaration (name, value name, help,
/// default, whether it repeats) and the one function that turns what was given into the value.
///
/// A command declares each option once, as a `static let`, lists it in its `CommandConfiguration`, and reads it
/// with `arguments.value(of:)`. The parser, `--help`, the usage line and the error messages all come from here.
///
/// ```
/// static let dryRun: Option<Bool> = .flag("--dry-run", aliases: ["-n"], help: "print what would be deleted, and delete nothing")
/// static let workers: Option<Int?> = .number("--workers", aliases: ["-j"], in: 1...256, help: "photos imported at once")
/// ```
package struct Option<Value: Sendable>: Sendable, DeclaresOption {
    package let declaration: OptionDeclaration
    /// The value from every occurrence's text, in order (empty when the option was not given).
    package let read: @Sendable ([String]) throws -> Value
}

extension Option where Value == Bool {
    /// `--name`: true when given.
    package static func flag(_ name: String, aliases: [String] = [], help: String) -> Option {
        Option(declaration: OptionDeclaration(name: name, aliases: aliases, valueName: nil, help: help)) { !$0.isEmpty }
    }
}

extension Option {
    /// `--name VALUE`: the last one given, converted by `convert`, or `defaultValue` when absent.
    package static func value(_ name: String, _ valueName: String, aliases: [String] = [], help: String, default defaultValue: Value,
                      defaultHelp: String? = nil, convert: @escaping @Sendable (String) throws -> Value) -> Option<Value> {
        Option(declaration: OptionDeclaration(name: name, aliases: aliases, valueName: valueName, help: help, defaultHelp: defaultHelp)) { given in
            try given.last.map(convert) ?? defaultValue
        }
    }

    /// `--name VALUE`, as given, or nil when absent.
    package static func text(_ name: String, _ valueName: String, aliases: [String] = [], help: String) -> Option where Value == String? {
        .value(name, valueName, aliases: aliases, help: help, default: nil) { $0 }
    }

    /// `--name N`: a whole number in `range`, or nil when absent.
    /// - Throws: `UsageError` naming the option, the range and what was given.
    package static func number(_ name: String, _ valueName: String = "N", aliases: [String] = [], in range: ClosedRange<Int>, help: String,
                       defaultHelp: String? = nil) -> Option where Value == Int? {
        .value(name, valueName, aliases: aliases, help: help, default: nil, defaultHelp: defaultHelp) { text in
            guard let n = Int(text), range.contains(n) else {
                throw UsageError("\(name) takes a number from \(range.lowerBound) to \(range.upperBound), got '\(text)'")
            }
            return n
        }
    }

    /// `--name CHOICE`: one of `E`'s cases (the value name lists them), or nil when absent.
    /// - Throws: `UsageError` listing the cases: `--missing takes thumbnail or export, got 'thumbnails'`.
    package static func choice<E: RawRepresentable & CaseIterable & Sendable>(_ name: String, _: E.Type, help: String,
                                                                       defaultHelp: String? = nil) -> Option
    where Value == E?, E.RawValue == String {
        let cases = E.allCases.map(\.rawValue)
        return .value(name, cases.joined(separator: "|"), help: help, default: nil, defaultHelp: defaultHelp) { text in
            guard let value = E(rawValue: text) else {
                let list = cases.count > 1 ? cases.dropLast().joined(separator: ", ") + " or " + cases[cases.count - 1] : cases.joined()
                throw UsageError("\(name) takes \(list), got '\(text)'")
            }
            return value
        }
    }

    /// `--name CHOICE` for a selector whose twin is a job file's `select:` key (`--format`, `--missing`): one of
    /// `E`'s cases, or nil when absent, refused in the job file's words (`SchemaReader.notOneOf`).
    /// - Throws: `UsageError`: `--format must be one of jpeg, png, …, found 'jpg'; did you mean 'jpeg'?`.
    package static func selector<E: RawRepresentable & CaseIterable & Sendable>(_ name: String, _: E.Type, valueName: String? = nil,
                                                                         help: String) -> Option
    where Value == E?, E.RawValue == String {
        let cases = E.allCases.map(\.rawValue)
        return .value(name, valueName ?? cases.joined(separator: "|"), help: help, default: nil) { text in
            guard let value = E(rawValue: text) else { throw UsageError(SchemaReader.notOneOf(name, cases, found: text)) }
            return value
        }
    }

    /// `--name` or `--name=CHOICE`: nil when absent, `alone` when given without a value, else one of `E`'s cases.
    /// The value is never taken from the next argument (`--progress job.yml` leaves the job file alone).
    /// - Throws: `UsageError` listing the cases, as `choice` does.
    package static func optionalChoice<E: RawRepresentable & CaseIterable & Sendable>(_ name: String, _ type: E.Type, alone: E,
                                                                               help: String) -> Option
    where Value == E?, E.RawValue == String {
        let choice = Option.choice(name, type, help: help)
        var declaration = choice.declaration
        declaration.valueIsOptional = true
        return Option(declaration: declaration) { given in
            given.last == "" ? alone : try choice.read(given)
        }
    }

    /// `--name` or `--name=VALUE`: nil when absent, `alone` when given without a value, else `convert`'s value.
    /// As `optionalChoice`, the value is never taken from the next argument (`--wait job.yml` leaves the job alone).
    package static func optionalValue<Wrapped: Sendable>(_ name: String, _ valueName: String, alone: Wrapped, help: String,
                                                 convert: @escaping @Sendable (String) throws -> Wrapped) -> Option
    where Value == Wrapped? {
        var declaration = OptionDeclaration(name: name, valueName: valueName, help: help)
        declaration.valueIsOptional = true
        return Option(declaration: declaration) { given in
            guard let last = given.last else { return nil }
            return last == "" ? alone : try convert(last)
        }
    }

    /// `--name VALUE`, any number of times: every value, in order, each converted by `convert`.
    package static func repeated<Element>(_ name: String, _ valueName: String, help: String,
                                  convert: @escaping @Sendable (String) throws -> Element) -> Option
    where Value == [Element] {
        Option(declaration: OptionDeclaration(name: name, valueName: valueName, help: help, repeats: true)) { given in
            try given.map(convert)
        }
    }

    /// The same option (name, value, checks, default) with another help line, for a command where it means a
    /// little more (`plan --verbose`), and another default shown when `defaultHelp` is given.
    package func helped(_ help: String, defaultHelp: String? = nil) -> Option {
        var declaration = self.declaration
        declaration.help = help
        if let defaultHelp { declaration.defaultHelp = defaultHelp }
        return Option(declaration: declaration, read: read)
    }
}
