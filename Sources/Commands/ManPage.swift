import Foundation
import Core

/// album's manual page, album(1), in roff (man(7) macros), made from the registry and each command's own help:
/// what `album help --man` prints and `make install` installs as `share/man/man1/album.1`.
///
/// ```
/// album help --man | man -l -
/// ```
struct ManPage: Sendable {
    var commands: [any Command.Type] = Album.commands

    /// The page: NAME, SYNOPSIS, DESCRIPTION, OPTIONS, COMMANDS (one subsection per command: usage, abstract,
    /// discussion, options), EXIT STATUS, SEE ALSO.
    var text: String {
        var lines = [
            ".TH ALBUM 1 \"\" \"album \(Software.albumVersion)\" \"User Commands\"",
            // Left-aligned and unhyphenated: usage lines, option names and file names are read as typed.
            ".ad l",
            ".nh",
            ".SH NAME",
            "album \\- " + ManPage.escaped(Album.abstract),
            ".SH SYNOPSIS",
            ".B album",
            ".I COMMAND",
            ".RI [ OPTIONS ]",
            ".br",
            ".B album help",
            ".RI [ COMMAND ]",
            ".br",
            ".B album help \\-\\-man",
            ".SH DESCRIPTION",
            "album runs job files through four stages (import, filter, thumbnail, export) and records every photo, step",
            "and file it makes in a catalogue, a folder with one SQLite database. Each command below reads or changes",
            "that catalogue;",
            ".B album COMMAND \\-\\-help",
            "prints the same text as its subsection here.",
            ".SH OPTIONS",
        ]
        lines += [Album.helpOption.declaration, Album.versionOption.declaration, Album.manOption.declaration].flatMap(ManPage.option)
        lines.append(".SH COMMANDS")
        for command in commands {
            let configuration = command.configuration
            lines.append(".SS \"album \(configuration.name)\"")
            lines.append(ManPage.usage(command))
            lines.append(".PP")
            lines += ManPage.paragraphs(configuration.abstract)
            if !configuration.discussion.isEmpty {
                lines.append(".PP")
                lines += ManPage.paragraphs(configuration.discussion)
            }
            lines += command.allOptions.flatMap(ManPage.option)
        }
        lines.append(".SH EXIT STATUS")
        for (codes, meaning) in Album.exitStatuses {
            lines += [".TP", ".B " + codes.map { String($0.rawValue) }.joined(separator: "/")] + ManPage.paragraphs(meaning)
        }
        lines += [
            ".SH SEE ALSO",
            ".BR vips (1),",
            ".BR sqlite3 (1).",
            "The job-file format, the catalogue, events and distributed runs are described in README.md and in",
            "docs/ (job-files.md, catalogue.md, events.md, distributed.md, commands.md) of album's source.",
        ]
        return lines.joined(separator: "\n")
    }

    /// The usage line, bold name and italic placeholders, each option's brackets kept on one line (`\ `).
    static func usage(_ command: any Command.Type) -> String {
        var words = ["\\fBalbum \(command.configuration.name)\\fR"]
        if !command.arguments.isEmpty { words.append(escaped(command.arguments)) }
        words += command.options.map { escaped($0.usage).replacingOccurrences(of: " ", with: "\\ ") }
        return words.joined(separator: " ")
    }

    /// `.TP`, the option's spellings in bold and its value in italics, then its help with the default.
    static func option(_ option: OptionDeclaration) -> [String] {
        let names = (option.aliases + [option.name]).map { "\\fB\(escaped($0))\\fR" }.joined(separator: ", ")
        let value = option.valueName.map { " \\fI\(escaped($0))\\fR" } ?? ""
        return [".TP", names + value] + paragraphs(option.helpWithDefault, breakingLines: true)
    }

    /// Help text as roff text lines: blank lines become `.PP`, `code` becomes bold, and, with `breakingLines`,
    /// each line of the help starts a new output line as it does in `--help`.
    static func paragraphs(_ text: String, breakingLines: Bool = false) -> [String] {
        var lines: [String] = []
        var bold = false
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.allSatisfy(\.isWhitespace) {
                lines.append(".PP")
                continue
            }
            if breakingLines && index > 0 { lines.append(".br") }
            var out = ""
            for character in escaped(String(line)) {
                if character == "`" {
                    bold.toggle()
                    out += bold ? "\\fB" : "\\fR"
                } else {
                    out.append(character)
                }
            }
            lines.append(out)
        }
        if bold { lines[lines.count - 1] += "\\fR" }
        return lines
    }

    /// `text` safe as a roff text line: backslashes as `\e`, dashes as `\-` (so options copy as typed), and a
    /// leading `.` or `'` (a request) protected with `\&`.
    static func escaped(_ text: String) -> String {
        var out = text.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
        if out.hasPrefix(".") || out.hasPrefix("'") { out = "\\&" + out }
        return out
    }
}
