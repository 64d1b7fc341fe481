/// What a command declares, read off its stored wrappers by reflection (swift-argument-parser reads its
/// `@Option`s the same way): the options, in the order the command writes them, and its positional arguments. The
/// parser, the usage line, `--help`, the completion scripts and the manual page are all made from these.
///
/// ```
/// struct GcCommand: Command {
///     @Positionals("[JOBFILE]") var given: [String]
///     @Option(SharedOptions.catalogue) var catalogue: String
///     @Flag("--dry-run", help: "…") var dryRun: Bool
/// }
/// GcCommand.options.map(\.name)   // ["--catalogue", "--dry-run"]
/// GcCommand.usage                 // "album gc [JOBFILE] [--catalogue DIR] [--dry-run]"
/// ```
extension Command {
    /// The stored wrappers of a command made by `init()`, by property name, in the order they are written.
    static var declaredProperties: [(name: String, property: any ParsedProperty)] {
        Mirror(reflecting: Self()).children.compactMap { child in
            // A wrapped property `x` is stored as `_x`.
            guard let label = child.label, label.hasPrefix("_"), let property = child.value as? any ParsedProperty else { return nil }
            return (String(label.dropFirst()), property)
        }
    }

    /// The options, in the order the usage line and help list them.
    static var options: [OptionDeclaration] {
        declaredProperties.compactMap { ($0.property as? any DeclaresOption)?.declaration }
    }

    /// The declared options and `--help`, which every command takes.
    static var allOptions: [OptionDeclaration] { options + [SharedOptions.help.declaration] }

    /// The positional arguments as the usage line shows them (`JOBFILE`, `PHOTO TEXT`, `PATH...`); empty when the
    /// command declares no `@Positionals`, and then the parser refuses any.
    static var arguments: String {
        declaredProperties.lazy.compactMap { ($0.property as? Positionals)?.usage }.first ?? ""
    }

    /// The command, each stored wrapper holding its value from `arguments`.
    /// - Throws: `UsageError` when a given text is not a value its option takes.
    static func parse(_ arguments: Arguments) throws -> Self {
        let properties = Dictionary(declaredProperties.map { ($0.name, $0.property) }, uniquingKeysWith: { first, _ in first })
        return try Self(from: ArgumentDecoder(arguments: arguments, properties: properties))
    }

    /// Parses `items` (the arguments after the command's name) into the command.
    /// - Throws: `UsageError`, as `Arguments(parsing:for:)` and `parse(_:)` do.
    static func parse(_ items: [String]) throws -> Self {
        try parse(Arguments(parsing: items, for: Self.self))
    }
}
