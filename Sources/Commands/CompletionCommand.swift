import Core

/// `album completion bash|zsh|fish`: prints a completion script made from the command registry (`CompletionScript`).
struct CompletionCommand: Command {
    /// Only reads: a reader of its stdout that goes away ends it quietly (`Command.onlyReads`).
    static let onlyReads = true
    static let configuration = CommandConfiguration(
        name: "completion",
        abstract: "Print a shell completion script for album (bash, zsh or fish).",
        discussion: """
            The script completes the commands, each command's options and their choices, and file or folder names
            for the arguments and options that take them. It is made from the commands' own declarations, so it
            always matches this album. `make install` installs all three; to try one without installing:
              bash: source <(album completion bash)
              zsh:  source <(album completion zsh)   (after compinit)
              fish: album completion fish | source
            """)

    @Positionals(CompletionScript.Shell.allCases.map(\.rawValue).joined(separator: "|")) var given: [String]

    func validate() throws {
        let shells = CompletionScript.Shell.allCases.map(\.rawValue)
        guard given.count == 1 else { throw UsageError("completion takes one shell: \(shells.joined(separator: ", "))") }
        guard CompletionScript.Shell(rawValue: given[0]) != nil else {
            throw UsageError("unknown shell '\(given[0])'; completion takes \(shells.joined(separator: ", "))")
        }
    }

    func run() throws -> ExitCode {
        Console.out(CompletionScript(shell: CompletionScript.Shell(rawValue: given[0])!).text)
        return .ok
    }
}
