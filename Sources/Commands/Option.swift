import YAML

/// One option a command declares, with the type its value is read as: the declaration (name, value name, help,
/// default, whether it repeats) and the one function that turns what was given into the value.
///
/// A command declares each option once, as a stored property wrapped in `@Option` (swift-argument-parser's shape),
/// and reads the property. The parser, `--help`, the usage line, the error messages, the completion scripts and the
/// manual page all come from the command's wrappers (`Command+Declarations`), in the order they are written, so an
/// option that is not declared cannot be read: it does not compile.
///
/// ```
/// @Flag("--dry-run", aliases: ["-n"], help: "print what would be deleted, and delete nothing") var dryRun: Bool
/// @Option(.number("--workers", aliases: ["-j"], in: 1...256, help: "photos imported at once")) var workers: Int?
/// @Option(SharedOptions.catalogue) var catalogue: String
/// ```
///
/// A wrapper made by a command's `init()` holds only the declaration; `Command.parse` makes the command again with
/// each wrapper holding its parsed value (`ArgumentDecoder`). Reading a value before that is a bug in album.
@propertyWrapper
struct Option<Value: Sendable>: Sendable, DeclaresOption, ParsedProperty {
    let declaration: OptionDeclaration
    /// The value from every occurrence's text, in order (empty when the option was not given).
    let read: @Sendable ([String]) throws -> Value
    /// The value `Command.parse` read; nil in a declaration not parsed yet.
    private let parsed: Value?

    init(declaration: OptionDeclaration, read: @escaping @Sendable ([String]) throws -> Value) {
        self.declaration = declaration
        self.read = read
        parsed = nil
    }

    /// A command's stored option: `@Option(.text("--format", "FORMAT", help: "…")) var format: String?`, or a shared
    /// one, `@Option(SharedOptions.catalogue) var catalogue: String`.
    init(_ option: Option) {
        self = option
    }

    private init(_ option: Option, parsed: Value) {
        declaration = option.declaration
        read = option.read
        self.parsed = parsed
    }

    /// The parsed value.
    var wrappedValue: Value {
        // Only `Command.parse` makes a command whose options are read; `init()` is for the declarations alone.
        guard let parsed else { fatalError("\(declaration.name) is read before its command was parsed (Command.parse)") }
        return parsed
    }

    func parsed(from arguments: Arguments) throws -> Option {
        Option(self, parsed: try arguments.value(of: self))
    }
}

/// `@Flag("--json", help: "JSON on stdout") var json: Bool`: an option that takes no value, true when given.
typealias Flag = Option<Bool>

extension Option where Value == Bool {
    /// A stored flag: `@Flag("--quiet", aliases: ["-q"], help: "…") var quiet: Bool`.
    init(_ name: String, aliases: [String] = [], help: String) {
        self = .flag(name, aliases: aliases, help: help)
    }
}

extension Option where Value == Bool {
    /// `--name`: true when given.
    static func flag(_ name: String, aliases: [String] = [], help: String) -> Option {
        Option(declaration: OptionDeclaration(name: name, aliases: aliases, valueName: nil, help: help)) { !$0.isEmpty }
    }
}

extension Option {
    /// `--name VALUE`: the last one given, converted by `convert`, or `defaultValue` when absent.
    static func value(_ name: String, _ valueName: String, aliases: [String] = [], help: String, default defaultValue: Value,
                      defaultHelp: String? = nil, convert: @escaping @Sendable (String) throws -> Value) -> Option<Value> {
        Option(declaration: OptionDeclaration(name: name, aliases: aliases, valueName: valueName, help: help, defaultHelp: defaultHelp)) { given in
            try given.last.map(convert) ?? defaultValue
        }
    }

    /// `--name VALUE`, as given, or nil when absent.
    static func text(_ name: String, _ valueName: String, aliases: [String] = [], help: String) -> Option where Value == String? {
        .value(name, valueName, aliases: aliases, help: help, default: nil) { $0 }
    }

    /// `--name N`: a whole number in `range`, or nil when absent.
    /// - Throws: `UsageError` naming the option, the range and what was given.
    static func number(_ name: String, _ valueName: String = "N", aliases: [String] = [], in range: ClosedRange<Int>, help: String,
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
    static func choice<E: RawRepresentable & CaseIterable & Sendable>(_ name: String, _: E.Type, help: String,
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
    static func selector<E: RawRepresentable & CaseIterable & Sendable>(_ name: String, _: E.Type, valueName: String? = nil,
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
    static func optionalChoice<E: RawRepresentable & CaseIterable & Sendable>(_ name: String, _ type: E.Type, alone: E,
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
    static func optionalValue<Wrapped: Sendable>(_ name: String, _ valueName: String, alone: Wrapped, help: String,
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
    static func repeated<Element>(_ name: String, _ valueName: String, help: String,
                                  convert: @escaping @Sendable (String) throws -> Element) -> Option
    where Value == [Element] {
        Option(declaration: OptionDeclaration(name: name, valueName: valueName, help: help, repeats: true)) { given in
            try given.map(convert)
        }
    }

    /// The same option (name, value, checks, default) with another help line, for a command where it means a
    /// little more (`plan --verbose`), and another default shown when `defaultHelp` is given.
    func helped(_ help: String, defaultHelp: String? = nil) -> Option {
        var declaration = self.declaration
        declaration.help = help
        if let defaultHelp { declaration.defaultHelp = defaultHelp }
        return Option(declaration: declaration, read: read)
    }
}
