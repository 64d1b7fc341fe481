/// One `album` subcommand, in swift-argument-parser's shape: a configuration, a parse that validates, a run.
protocol Command: Sendable {
    /// The subcommand's name, one-line abstract and full help.
    static var configuration: CommandConfiguration { get }
    /// Reads and validates the arguments after the subcommand's name.
    init(arguments: inout Arguments) throws
    /// Does the work and says how album exits.
    func run() throws -> ExitCode
    /// Whether `run()` decides itself what a failed write to stdout or stderr means (`album run` stops on its own
    /// output only). When false, any failed write makes the exit status 3 (`Album.checkingOutput`).
    static var checksItsOutput: Bool { get }
}

extension Command {
    static var checksItsOutput: Bool { false }
}

struct CommandConfiguration {
    var name: String
    var abstract: String
    var usage: String
    var help: String
}
