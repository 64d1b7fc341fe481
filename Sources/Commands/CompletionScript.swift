import Foundation

/// A shell completion script for `album`, made from the command registry alone: every command's name and abstract,
/// its declared options (long names and aliases, whether each takes a value, a choice's cases) and what its
/// positional arguments are, read from `CommandConfiguration.arguments`. A new command or option is completed with
/// no change here.
///
/// ```
/// print(CompletionScript(shell: .bash).text)   // what `album completion bash` prints
/// ```
struct CompletionScript: Sendable {
    /// The shells album writes completion for.
    enum Shell: String, CaseIterable, Sendable { case bash, zsh, fish }

    /// What to offer for a value: an option's or a positional argument's.
    enum Completion: Equatable, Sendable {
        /// The words listed (a choice's cases: `thumbnail|export`).
        case words([String])
        /// Folder names (`DIR`, `RUNDIR`).
        case directories
        /// File and folder names (`JOBFILE`, `PATH`, `FILE`).
        case files
        /// Nothing to offer (`N`, `TEXT`, `ID`).
        case none

        /// What a value named `name` (a value name or a positional as the usage line shows it) takes: a choice's
        /// cases are lowercase words (`thumbnail|export`, `last-run`), placeholders are capitals.
        init(valueName name: String) {
            if name.contains("|") || !name.contains(where: \.isUppercase) {
                self = .words(name.split(separator: "|").map(String.init))
            } else if name.hasSuffix("DIR") {
                self = .directories
            } else if ["FILE", "PATH"].contains(where: name.contains) {
                self = .files
            } else {
                self = .none
            }
        }
    }

    /// One positional argument, from a word of the usage line's arguments (`JOBFILE`, `[K]`, `PATH...`).
    struct Positional: Sendable {
        var name: String
        var completion: Completion
        /// Whether it may be given more than once (`PATH...`): the last one repeats.
        var repeats: Bool
        /// Whether it may be left out (`[K]`).
        var optional = false

        /// The positionals in `arguments` (`"status|abandon RUNDIR"`), in order.
        static func parse(_ arguments: String) -> [Positional] {
            arguments.split(separator: " ").map { word in
                var name = String(word)
                let repeats = name.hasSuffix("...")
                if repeats { name.removeLast(3) }
                let optional = name.hasPrefix("[")
                name = name.trimmingCharacters(in: ["[", "]"])
                return Positional(name: name, completion: Completion(valueName: name), repeats: repeats, optional: optional)
            }
        }
    }

    /// One command as completion sees it.
    struct Entry: Sendable {
        var name: String
        var abstract: String
        var options: [OptionDeclaration]
        var positionals: [Positional]
    }

    var shell: Shell
    /// The commands, in the registry's order, then `help`, which `album` takes before any command.
    var entries: [Entry]
    /// The options `album` takes before any command (`--help`, `--version`).
    var topOptions: [OptionDeclaration]

    init(shell: Shell, commands: [any Command.Type] = Album.commands) {
        self.shell = shell
        let registered = commands.map { command in
            let configuration = command.configuration
            return Entry(name: configuration.name, abstract: configuration.abstract, options: command.allOptions,
                         positionals: Positional.parse(command.arguments))
        }
        let names = registered.map(\.name)
        let help = Entry(name: "help", abstract: "Show a command's help (help --man: the manual page).",
                         options: [Album.manOption.declaration],
                         positionals: [Positional(name: "COMMAND", completion: .words(names), repeats: false)])
        entries = registered + [help]
        topOptions = [Album.helpOption.declaration, Album.versionOption.declaration]
    }

    /// The whole script, without its last newline (`Console.out` adds it).
    var text: String {
        switch shell {
        case .bash: bash
        case .zsh: zsh
        case .fish: fish
        }
    }

    /// The first line of an option's help, as a one-line description.
    static func summary(_ help: String) -> String {
        String(help.split(separator: "\n", omittingEmptySubsequences: true).first ?? "")
    }
}
