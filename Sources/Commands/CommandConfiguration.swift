/// What a command says about itself (swift-argument-parser's `CommandConfiguration`): everything its usage line and
/// `--help` are made from.
package struct CommandConfiguration: Sendable {
    /// The subcommand's name: `album NAME`.
    package var name: String
    /// One line for `album --help` and the top of the command's own help.
    package var abstract: String
    /// The positional arguments as the usage line shows them (`JOBFILE`, `PHOTO TEXT`, `PATH...`); empty when the
    /// command takes none, and then the parser refuses any.
    package var arguments: String = ""
    /// Paragraphs after the usage line: what the arguments mean, what the command does, its exit statuses.
    package var discussion: String = ""
    /// The options, in the order the usage line and help list them.
    package var options: [OptionDeclaration]

    package init(name: String, abstract: String, arguments: String = "", discussion: String = "", options: [any DeclaresOption]) {
        self.name = name
        self.abstract = abstract
        self.arguments = arguments
        self.discussion = discussion
        self.options = options.map(\.declaration)
    }

    /// The declared options and `--help`, which every command takes.
    package var allOptions: [OptionDeclaration] { options + [SharedOptions.help.declaration] }
}
