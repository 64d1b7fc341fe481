import YAML

/// The arguments after a subcommand's name, parsed against the options its `CommandConfiguration` declares: the
/// one parser every command uses, in swift-argument-parser's shape.
///
/// `--name VALUE` and `--name=VALUE` both work (only the second for an option whose value may be left out,
/// `--progress[=plain]`); short flags may be bundled (`-qn`); `--` ends the options; `-` is a positional (standard input).
/// Every error names the option: `unknown option '--catalog'; did you mean '--catalogue'?`, `--catalogue needs a
/// value`, `--dry-run takes no value`.
///
/// ```
/// let arguments = try Arguments(parsing: ["--catalogue", "pics", "--dry-run"], for: GcCommand.self)
/// try arguments.value(of: SharedOptions.catalogue)  // "/cwd/pics"
/// try GcCommand.parse(arguments).dryRun             // true
/// ```
struct Arguments: Sendable {
    /// The options the command declared, `--help` among them.
    let declared: [OptionDeclaration]
    /// What was given for each declared option, by its long name, in order; a flag's occurrences are "".
    private var given: [String: [String]] = [:]
    /// The arguments that are not options, in order (everything after `--` among them).
    private(set) var positionals: [String] = []

    /// Parses `items` against the options `command` declares.
    /// - Throws: `UsageError` for an unknown option, a missing value, a value given to a flag, or an argument
    ///   given to a command that takes none.
    init(parsing items: [String], for command: any Command.Type) throws {
        try self.init(parsing: items, options: command.allOptions)
        if command.arguments.isEmpty, let first = positionals.first {
            throw UsageError("\(command.configuration.name) takes no arguments, got '\(first)'")
        }
    }

    /// Parses `items` against `options`.
    init(parsing items: [String], options: [OptionDeclaration]) throws {
        declared = options
        var items = items
        var index = 0
        while index < items.count {
            if let bundle = bundled(items[index]) {  // `-qn` is `-q -n`
                items.replaceSubrange(index...index, with: bundle)
            }
            let item = items[index]
            index += 1
            if item == "--" {
                positionals += items[index...]
                break
            }
            guard item.hasPrefix("-"), item != "-" else {
                positionals.append(item)
                continue
            }
            let (name, inline) = Arguments.split(item)
            guard let option = declaration(named: name) else { throw unknown(name) }
            if option.isFlag {
                guard inline == nil else { throw UsageError("\(option.name) takes no value, got '\(item)'") }
                given[option.name, default: []].append("")
            } else if let inline {
                given[option.name, default: []].append(inline)
            } else if option.valueIsOptional {
                given[option.name, default: []].append("")
            } else {
                // The next item is the value, unless it is missing or is itself one of the command's options.
                guard index < items.count, declaration(named: items[index]) == nil else {
                    throw UsageError("\(option.name) needs a value")
                }
                given[option.name, default: []].append(items[index])
                index += 1
            }
        }
    }

    /// Whether `items` ask for help: `--help` or `-h` anywhere before `--`.
    static func asksForHelp(_ items: [String]) -> Bool {
        items.prefix(while: { $0 != "--" }).contains { SharedOptions.help.declaration.names.contains($0) }
    }

    /// The value of `option`: what was given, converted, or its default.
    /// - Throws: `UsageError` when the given text is not a value the option takes.
    func value<Value>(of option: Option<Value>) throws -> Value {
        // An option read but not declared would never be parsed, and its default would hide the mistake: that is
        // a bug in album's own code. A command reads its stored wrappers, each declared, so only code that reads
        // a shared option by hand (`Album`'s `--wait`) could make it.
        guard declared.contains(option.declaration) else {
            fatalError("\(option.declaration.name) is read but not among its command's declared options")
        }
        return try option.read(given[option.declaration.name] ?? [])
    }

    /// The declaration that `name` (a long name or an alias) spells, if any.
    private func declaration(named name: String) -> OptionDeclaration? {
        declared.first { $0.names.contains(name) }
    }

    /// Short options bundled in one item, as getopt reads them: `-qn` is `-q -n`, and `-qj 2` is `-q -j 2` (only the
    /// last may take a value, the next item). nil unless every letter is a declared short option and all but the
    /// last are flags, so that `-5` or an unknown `-xyz` are read as before.
    private func bundled(_ item: String) -> [String]? {
        guard item.count > 2, item.hasPrefix("-"), !item.hasPrefix("--"), declaration(named: item) == nil else { return nil }
        let names = item.dropFirst().map { "-\($0)" }
        let options = names.map(declaration(named:))
        guard options.allSatisfy({ $0 != nil }), options.dropLast().allSatisfy({ $0!.isFlag }) else { return nil }
        return names
    }

    /// `--name=value` as its name and value; any other item as itself and nil.
    private static func split(_ item: String) -> (String, String?) {
        guard item.hasPrefix("--"), let equals = item.firstIndex(of: "=") else { return (item, nil) }
        return (String(item[..<equals]), String(item[item.index(after: equals)...]))
    }

    /// The error for an unknown option, with the nearest declared name when it is a likely typo.
    private func unknown(_ name: String) -> UsageError {
        var message = "unknown option '\(name)'"
        if let near = Suggest.nearest(to: name, in: declared.map(\.name)) { message += "; did you mean '\(near)'?" }
        return UsageError(message)
    }
}
