/// What a command says about itself (swift-argument-parser's `CommandConfiguration`): its name and the text of its
/// help. Its options and positional arguments are its stored wrappers (`Command+Declarations`).
struct CommandConfiguration: Sendable {
    /// The subcommand's name: `album NAME`.
    var name: String
    /// One line for `album --help` and the top of the command's own help.
    var abstract: String
    /// Paragraphs after the usage line: what the arguments mean, what the command does, its exit statuses.
    var discussion: String = ""
}
