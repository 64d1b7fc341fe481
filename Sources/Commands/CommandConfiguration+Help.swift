/// The usage line and the `--help` page, made from the configuration and the declarations alone.
extension Command {
    /// `album gc [--catalogue DIR] [--dry-run]`.
    static var usage: String {
        (["album", configuration.name] + (arguments.isEmpty ? [] : [arguments]) + options.map(\.usage)).joined(separator: " ")
    }

    /// The whole `--help` page: abstract, usage, discussion, then one entry per option.
    ///
    /// ```
    /// Delete derived files no row refers to (never originals, never outside the catalogue).
    ///
    /// usage: album gc [--catalogue DIR] [--dry-run]
    ///
    /// options:
    ///   --catalogue DIR  the catalogue folder (default: ./album)
    ///   -n, --dry-run    print what would be deleted, and delete nothing
    ///   -h, --help       show this help
    /// ```
    static var help: String {
        var page = "\(configuration.abstract)\n\nusage: \(usage)\n"
        if !configuration.discussion.isEmpty { page += "\n\(configuration.discussion)\n" }
        return page + "\noptions:\n" + CommandConfiguration.optionLines(allOptions).joined(separator: "\n")
    }
}

extension CommandConfiguration {
    /// The widest name column before a name gets a line of its own.
    static let widestLabel = 24

    /// Each option as `  LABEL  HELP`, the help column aligned and its further lines under its first.
    static func optionLines(_ options: [OptionDeclaration]) -> [String] {
        let width = min(widestLabel, options.map(\.label.count).filter { $0 <= widestLabel }.max() ?? 0)
        let indent = String(repeating: " ", count: 2 + width + 2)
        return options.flatMap { option -> [String] in
            let help = option.helpWithDefault.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let label = "  " + option.label
            var lines: [String]
            if option.label.count > width {
                lines = [label, indent + help[0]]
            } else {
                lines = [label.padding(toLength: indent.count, withPad: " ", startingAt: 0) + help[0]]
            }
            lines += help.dropFirst().map { indent + $0 }
            return lines
        }
    }
}
