import Foundation
import XCTest
@testable import Core
@testable import Commands

/// What `make install` installs besides the binary, from the built `album`: the completion scripts (`album
/// completion SHELL`), run by the shells themselves, and the man page (`album help --man`), checked by groff. Both
/// are made from the registry, so these tests read the registry, never a list of names. The install itself (a
/// static release build, minutes) is `make check-install`.
final class InstallTests: XCTestCase {
    /// Every spelling of every option each registered command declares, `--help` and `-h` included.
    var declared: [(name: String, options: Set<String>)] {
        Album.commands.map { ($0.configuration.name, Set($0.allOptions.flatMap(\.names))) }
    }

    /// `album completion SHELL`, written to a file in `folder`.
    func script(_ shell: String, in folder: String) throws -> String {
        let result = try TestSupport.album(["completion", shell])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssert(result.stderr.isEmpty, result.stderr)
        return try TestSupport.write(result.stdout, to: "album.\(shell)", in: folder)
    }

    /// bash completes, through the script's own function, each command's options after `-`, the commands after
    /// `album`, and a choice's cases.
    func testBashCompletesEveryCommandAndEveryOptionItDeclares() throws {
        try Probe.require("bash", package: "bash")
        let folder = try TestSupport.temporaryFolder(self)
        let path = try script("bash", in: folder)
        let syntax = try Tool.run(["bash", "-n", path])
        XCTAssertEqual(syntax.status, 0, syntax.stderr)
        // `line WORD...` completes the last word as bash would, and prints the candidates on one line.
        var driver = #"""
            source "$1"
            line() { COMP_WORDS=("$@"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); COMPREPLY=(); _album; echo "${COMPREPLY[*]}"; }
            line album ''
            line album completion ''
            line album dist ''
            line album ls --missing ''
            line album run -j 4 job.yml ''

            """#
        for (name, _) in declared { driver += "line album \(name) -\n" }
        let driverPath = try TestSupport.write(driver, to: "driver.bash", in: folder)
        let result = try Tool.run(["bash", "--norc", "--noprofile", driverPath, path])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let candidates = lines.map { Set($0.split(separator: " ").map(String.init)) }
        let top = [Album.helpOption.declaration, Album.versionOption.declaration].flatMap(\.names)
        XCTAssertEqual(candidates[0], Set(declared.map(\.name) + ["help"] + top))
        XCTAssert(top.contains("-V"), "album -V is the version's short flag")
        XCTAssertEqual(lines[1], "bash zsh fish")
        XCTAssertEqual(lines[2], "status abandon")
        XCTAssertEqual(candidates[3], Set(Selection.Missing.allCases.map(\.rawValue)))
        XCTAssertEqual(lines[4], "", "run takes one job file: nothing after it")
        for (index, (name, options)) in declared.enumerated() {
            XCTAssertEqual(candidates[5 + index], options, "album \(name) -<TAB>")
        }
    }

    /// fish completes the commands, then each command's options (`complete -C`), from the installed script.
    func testFishCompletesEveryCommandAndEveryOptionItDeclares() throws {
        try Probe.require("fish", package: "fish")
        let folder = try TestSupport.temporaryFolder(self)
        let path = try script("fish", in: folder)
        let syntax = try Tool.run(["fish", "--no-execute", path])
        XCTAssertEqual(syntax.status, 0, syntax.stderr)
        var commands = "source $argv[1]\ncomplete -C 'album '\necho ---\n"
        for (name, _) in declared { commands += "complete -C 'album \(name) -'\necho ---\n" }
        let driverPath = try TestSupport.write(commands, to: "driver.fish", in: folder)
        let result = try Tool.run(["fish", "--no-config", driverPath, path])
        XCTAssertEqual(result.status, 0, result.stderr)
        // Each block: one candidate a line, then a tab and its description.
        let blocks = result.stdout.components(separatedBy: "---\n").map { block in
            Set(block.split(separator: "\n").map { String($0.split(separator: "\t")[0]) })
        }
        XCTAssertEqual(blocks[0], Set(declared.map(\.name) + ["help"]), "album <TAB>")
        for (index, (name, options)) in declared.enumerated() {
            XCTAssertEqual(blocks[1 + index], options, "album \(name) -<TAB>")
        }
    }

    /// zsh reads the script (`zsh -n`), and each command's `_arguments` spells every option it declares.
    func testZshScriptNamesEveryCommandAndEveryOptionItDeclares() throws {
        try Probe.require("zsh", package: "zsh")
        let folder = try TestSupport.temporaryFolder(self)
        let path = try script("zsh", in: folder)
        let syntax = try Tool.run(["zsh", "-n", path])
        XCTAssertEqual(syntax.status, 0, syntax.stderr)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssert(text.hasPrefix("#compdef album\n"))
        for (name, options) in declared {
            XCTAssert(text.contains("'\(name):"), "\(name) is among _describe's commands")
            let start = try XCTUnwrap(text.range(of: "\n                \(name))\n"), name).upperBound
            let branch = try text[start..<XCTUnwrap(text.range(of: ";;\n", range: start..<text.endIndex)).lowerBound]
            for option in options {
                XCTAssert([option + "[", option + "=[", option + ",", option + "}"].contains(where: branch.contains),
                          "\(name)'s _arguments spell \(option)\n\(branch)")
            }
        }
    }

    /// The man page has a subsection per registered command with its usage and every option, an EXIT STATUS, and
    /// groff renders it without a warning.
    func testTheManPageHasEveryCommandAndGroffReadsItWithoutWarnings() throws {
        try Probe.require("groff", package: "groff-base")
        let folder = try TestSupport.temporaryFolder(self)
        let page = try TestSupport.album(["help", "--man"])
        XCTAssertEqual(page.status, 0, page.stderr)
        XCTAssertEqual(try TestSupport.album(["--help", "--man"]).stdout, page.stdout)
        let path = try TestSupport.write(page.stdout, to: "album.1", in: folder)
        for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "COMMANDS", "EXIT STATUS", "SEE ALSO"] {
            XCTAssert(page.stdout.contains("\n.SH \(section)\n") || page.stdout.contains("\n.SH \"\(section)\"\n"), section)
        }
        let sections = page.stdout.components(separatedBy: "\n.SS ")
        XCTAssertEqual(sections.count - 1, Album.commands.count, "one subsection per command")
        for (command, section) in zip(Album.commands, sections.dropFirst()) {
            let configuration = command.configuration
            XCTAssert(section.hasPrefix("\"album \(configuration.name)\"\n"), String(section.prefix(40)))
            for option in command.allOptions {
                XCTAssert(section.contains("\\fB\(ManPage.escaped(option.name))\\fR"), "\(configuration.name): \(option.name)")
            }
        }
        let check = try Tool.run(["groff", "-man", "-Tutf8", "-ww", "-z", path])
        XCTAssertEqual(check.status, 0)
        XCTAssertEqual(check.stderr, "", "groff -ww warns")
        let rendered = try Tool.run(["sh", "-c", "groff -man -Tutf8 -P-cbou '\(path)'"])
        XCTAssertEqual(rendered.stderr, "")
        for command in Album.commands {
            XCTAssert(rendered.stdout.contains(command.usage.prefix(30)), "rendered: \(command.configuration.name)'s usage")
        }
        for (codes, _) in Album.exitStatuses {
            XCTAssert(rendered.stdout.contains(codes.map { String($0.rawValue) }.joined(separator: "/")))
        }
    }

    /// `album completion` refuses a shell it does not write for, as a usage error.
    func testCompletionRefusesAnUnknownShell() throws {
        let result = try TestSupport.album(["completion", "tcsh"])
        XCTAssertEqual(result.status, 2)
        XCTAssert(result.stderr.contains("unknown shell 'tcsh'; completion takes bash, zsh, fish"), result.stderr)
        XCTAssertEqual(try TestSupport.album(["completion"]).status, 2)
    }
}
