/// What a command's help and parser know about one option, as its command declared it: the single source of the
/// option's name, value name, help line and default (swift-argument-parser's `@Option`/`@Flag` metadata).
///
/// ```
/// OptionDeclaration(name: "--catalogue", valueName: "DIR", help: "the catalogue folder", defaultHelp: "./album")
/// // help:  "  --catalogue DIR  the catalogue folder (default: ./album)"
/// // usage: "[--catalogue DIR]"
/// ```
struct OptionDeclaration: Sendable, Equatable {
    /// The long name, with its dashes: `--catalogue`.
    var name: String
    /// Other spellings album already accepts (`-n` for `--dry-run`).
    var aliases: [String] = []
    /// The value's placeholder in usage and help (`DIR`); nil for a flag, which takes no value.
    var valueName: String?
    /// What the option does; further lines continue under the first.
    var help: String
    /// The default, as the help shows it; nil when the help shows none.
    var defaultHelp: String?
    /// Whether the option may be given more than once, every value kept in order.
    var repeats = false
    /// Whether the value may be left out (`--progress` or `--progress=plain`): then it is given only after `=`,
    /// never as the next argument, as git's `--color[=WHEN]`.
    var valueIsOptional = false

    /// Whether the option takes no value.
    var isFlag: Bool { valueName == nil }

    /// Every spelling that names the option.
    var names: [String] { [name] + aliases }

    /// The option as the usage line shows it: `[--catalogue DIR]`, `[--set NAME=VALUE]...`, `[--progress[=live|plain]]`.
    var usage: String { "[\(name)\(valueText)]" + (repeats ? "..." : "") }

    /// The option's name column in the help: `-n, --dry-run`, `--catalogue DIR`.
    var label: String { (aliases + [name]).joined(separator: ", ") + valueText }

    /// The value after the name: ` DIR`, `[=live|plain]` for an optional one, nothing for a flag.
    private var valueText: String {
        guard let valueName else { return "" }
        return valueIsOptional ? "[=\(valueName)]" : " \(valueName)"
    }

    /// The help text with its default: `the catalogue folder (default: ./album)`.
    var helpWithDefault: String {
        help + (defaultHelp.map { " (default: \($0))" } ?? "")
    }
}
