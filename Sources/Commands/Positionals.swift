/// A command's positional arguments, declared once as a stored property with their usage text, in order, as the
/// usage line shows them (`JOBFILE`, `PHOTO TEXT`, `PATH...`, `[K]`):
///
/// ```
/// @Positionals("PHOTO TEXT") var given: [String]
/// ```
///
/// A command that declares none takes none: the parser refuses any (`verify takes no arguments, got 'x'`). How many
/// were given is `validate()`'s to check, with the command's own words.
@propertyWrapper
struct Positionals: Sendable, ParsedProperty {
    /// The arguments as the usage line, the completion scripts and the manual page show them.
    let usage: String
    /// The values `Command.parse` read; nil in a declaration not parsed yet.
    private let parsed: [String]?

    init(_ usage: String) {
        self.usage = usage
        parsed = nil
    }

    private init(usage: String, parsed: [String]) {
        self.usage = usage
        self.parsed = parsed
    }

    /// The arguments that are not options, in order (everything after `--` among them).
    var wrappedValue: [String] {
        // As `Option.wrappedValue`: only a parsed command reads its arguments.
        guard let parsed else { fatalError("positional arguments \(usage) are read before their command was parsed (Command.parse)") }
        return parsed
    }

    func parsed(from arguments: Arguments) throws -> Positionals {
        Positionals(usage: usage, parsed: arguments.positionals)
    }
}
