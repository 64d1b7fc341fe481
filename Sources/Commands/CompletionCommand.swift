import Core

/// `album completion bash|zsh|fish`: prints a completion script made from the command registry (`CompletionScript`).
package struct CompletionCommand: Command {
    /// Only reads: a reader of its stdout that goes away ends it quietly (`Command.onlyReads`).
    package static let onlyReads = true
    package static let configuration = CommandConfiguration(
        name: "completion",
        abstract: "Print a shell completion script for album (bash, zsh or fish).",
        arguments: CompletionScript.Shell.allCases.map(\.rawValue).joined(separator: "|"),
        discussion: """
            The script completes the commands, each command's options and their choices, and file or folder names
            for the arguments and options that take them. It is made from the commands' own declarations, so it
            always matches this album. `make install` installs all three; to try one without installing:
              bash: source <(album completion bash)
              zsh:  source <(album completion zsh)   (after compinit)
              fish: album completion fish | source
            """,
        options: [])

    package var given: [String]

    package init(_ arguments: Arguments) throws {
        given = arguments.positionals
    }

    package func validate() throws {
        let shells = CompletionScript.Shell.allCases.map(\.rawValue)
        guard given.count == 1 else { throw UsageError("completion takes one shell: \(shells.joined(separator: ", "))") }
        guard CompletionScript.Shell(rawValue: given[0]) != nil else {
            throw UsageError("unknown shell '\(given[0])'; completion takes \(shells.joined(separator: ", "))")
        }
    }

    package func run() throws -> ExitCode {
        Console.out(CompletionScript(shell: CompletionScript.Shell(rawValue: given[0])!).text)
        return .ok
    }
}
