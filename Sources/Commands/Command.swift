import Core

/// One `album` subcommand, in swift-argument-parser's shape: a static configuration that declares its options,
/// an initialiser that reads their values, `validate()`, then `run()`.
///
/// Adding a command is one file holding such a type, plus its line in `Album.commands`; its `--help`, its usage
/// line, its parsing and its errors come from the declarations (docs/commands.md shows a whole one).
package protocol Command: Sendable {
    /// The subcommand's name, abstract, discussion, positional arguments and options.
    static var configuration: CommandConfiguration { get }
    /// Reads the declared options' values (`arguments.value(of:)`) and the positionals.
    /// - Throws: `UsageError` when a value is not one its option takes.
    init(_ arguments: Arguments) throws
    /// Checks what the values cannot check one by one: how many positionals, options needed together.
    /// - Throws: `UsageError` (exit 2).
    func validate() throws
    /// Does the work and says how album exits.
    func run() throws -> ExitCode
    /// Whether `run()` decides itself what a failed write to stdout or stderr means (`album run` stops on its own
    /// output only). When false, any failed write makes the exit status 3 (`Album.checkingOutput`).
    static var checksItsOutput: Bool { get }
    /// Whether the command only reads (`plan`, `ls`, `show`, …): a reader of its stdout that goes away
    /// (`album plan JOB | head -3`) ends it quietly with its own status, as `ls | head` ends; any other failed write
    /// still makes the status 3 (`Album.checkingOutput`).
    static var onlyReads: Bool { get }
}

extension Command {
    package static var checksItsOutput: Bool { false }
    package static var onlyReads: Bool { false }
    package func validate() throws {}
}
