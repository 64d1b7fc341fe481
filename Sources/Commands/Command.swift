import Core

/// One `album` subcommand, in swift-argument-parser's shape: a static configuration, its options and positional
/// arguments as stored property wrappers (`@Option`, `@Flag`, `@Positionals`), each declared once, `validate()`,
/// then `run()`.
///
/// Adding a command is one file holding such a type, plus its line in `Album.commands`; its `--help`, its usage
/// line, its parsing, its errors, its completion and its manual page come from the declarations
/// (`Command+Declarations`; docs/commands.md shows a whole one). `Command.parse` makes the command with its values.
protocol Command: Sendable, Decodable {
    /// The subcommand's name, abstract and discussion.
    static var configuration: CommandConfiguration { get }
    /// The command's declarations alone, its wrappers holding no value yet: what `Command+Declarations` reads.
    /// Every stored property being a wrapper, the implicit `init()` is the one.
    init()
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
    static var checksItsOutput: Bool { false }
    static var onlyReads: Bool { false }
    func validate() throws {}
}
