/// One `album` subcommand, in swift-argument-parser's shape: a configuration, a parse that validates, a run.
protocol Command: Sendable {
    /// The subcommand's name, one-line abstract and full help.
    static var configuration: CommandConfiguration { get }
    /// Reads and validates the arguments after the subcommand's name.
    init(arguments: inout Arguments) throws
    /// Does the work and says how album exits.
    func run() throws -> ExitCode
}

struct CommandConfiguration {
    var name: String
    var abstract: String
    var usage: String
    var help: String
}
