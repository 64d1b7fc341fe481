import Foundation
import XCTest
@testable import Catalogue
@testable import Commands

/// The command line made from declarations: every command's parsing, `--help`, usage line and errors come from its
/// `CommandConfiguration`, the shared options behave the same everywhere, and the registry is the one list of
/// commands (docs/commands.md).
final class CommandLineTests: XCTestCase {
    /// The registry with docs/commands.md's example added: the one line a new command takes.
    static let registry: [any Command.Type] = Album.commands + [CountCommand.self]

    /// Arguments that get each command that takes `--catalogue` past its own checks, in a folder made by
    /// `makeFolder`. Every command declaring `--catalogue` must be here (the test checks the set).
    static let catalogueCommands: [String: [String]] = [
        "run": ["job.yml"], "watch": ["job.yml", "--once", "--settle", "0.1"], "plan": ["job.yml"], "import": ["photos"], "ls": [], "show": ["abc"], "runs": [],
        "report": ["--out", "report.html"], "caption": ["abc", "a caption"], "rm": ["abc"], "verify": [], "gc": [],
        "relocate": ["--from", "old", "--to", "new"], "prune": [],
    ]

    /// A folder with one photo and a job that imports it.
    func makeFolder() throws -> String {
        let folder = try TestSupport.temporaryFolder(self)
        try Fixture.jpeg(at: "\(folder)/photos/a.jpg")
        try TestSupport.write("version: 1\nstages:\n  - import: {from: photos}\n", to: "job.yml", in: folder)
        return folder
    }

    func testTheRegistryListsEachCommandOnceAndTheTopLevelHelpIsMadeFromIt() throws {
        let names = CommandLineTests.registry.map { $0.configuration.name }
        XCTAssertEqual(Set(names).count, names.count, "no name twice: \(names)")
        for registry in [Album.commands, CommandLineTests.registry] {
            let lines = Album.help(for: registry).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let start = try XCTUnwrap(lines.firstIndex(of: "commands:")) + 1
            let rows = Array(lines[start...].prefix { !$0.isEmpty })
            XCTAssertEqual(rows.count, registry.count, "one row per registered command, no other")
            for (row, command) in zip(rows, registry) {
                let words = row.split(separator: " ", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                XCTAssertEqual(words, [command.configuration.name, command.configuration.abstract], row)
            }
        }
        let top = try TestSupport.album(["--help"])
        XCTAssertEqual(top.status, 0)
        XCTAssertEqual(top.stdout, Album.help + "\n", "the binary prints the help made from the registry")
    }

    /// Each command parsed with nothing given: a stored property that is no `@Option`, `@Flag` or `@Positionals`
    /// would stop the test here (`ArgumentDecoder`). An option a command reads but does not declare does not compile.
    func testEveryCommandIsMadeFromItsDeclarationsAlone() throws {
        for command in CommandLineTests.registry {
            let arguments = try Arguments(parsing: [], for: command)
            XCTAssertNoThrow(try command.parse(arguments), command.configuration.name)
        }
    }

    /// The shared `--wait[=SECONDS]` reaches the lock from the command's own declaration: a command that declares it
    /// says so by `WaitsForLock`, and `Album` reads the value from the command, never from the arguments by name
    /// (`merge --wait` is merge's own flag, which waits for the chunks too).
    func testEveryCommandThatDeclaresWaitHandsItToTheLock() throws {
        var waiting: [String] = []
        for command in Album.commands where command.allOptions.contains(SharedOptions.wait.declaration) {
            let parsed = try command.parse(Arguments(parsing: ["--wait"], for: command))
            XCTAssertEqual((parsed as? any WaitsForLock)?.wait, LockWait(seconds: nil), command.configuration.name)
            waiting.append(command.configuration.name)
        }
        XCTAssertEqual(waiting.sorted(), ["caption", "gc", "import", "prune", "relocate", "rm", "run", "verify", "watch"])
    }

    func testEveryCommandAnswersHelpWithAUsageAndEveryOptionItDeclares() throws {
        for command in Album.commands {
            let configuration = command.configuration
            let help = try TestSupport.album([configuration.name, "--help"])
            XCTAssertEqual(help.status, 0, configuration.name)
            XCTAssertEqual(help.stdout, command.help + "\n", "\(configuration.name): the help made from the declarations")
            XCTAssertEqual(try TestSupport.album(["help", configuration.name]).stdout, help.stdout)
            XCTAssertEqual(try TestSupport.album([configuration.name, "-h"]).stdout, help.stdout)
            let usage = try XCTUnwrap(help.stdout.split(separator: "\n").first { $0.hasPrefix("usage: ") })
            XCTAssertEqual(String(usage), "usage: " + command.usage)
            XCTAssert(usage.hasPrefix("usage: album \(configuration.name)"), String(usage))
            let optionLines = help.stdout.components(separatedBy: "\noptions:\n").last ?? ""
            for option in command.allOptions {
                if option.name != "--help" { XCTAssert(usage.contains(option.usage), "\(configuration.name): usage shows \(option.usage)") }
                XCTAssert(optionLines.contains("  \(option.label)"), "\(configuration.name) --help lists \(option.label)")
                let firstLine = String(option.helpWithDefault.split(separator: "\n")[0])
                XCTAssert(optionLines.contains(firstLine), "\(configuration.name) --help explains \(option.name): \(firstLine)")
            }
            let listed = optionLines.split(separator: "\n").filter { $0.hasPrefix("  -") }
            XCTAssertEqual(listed.count, command.allOptions.count, "\(configuration.name): every option once, no other\n\(optionLines)")
        }
    }

    func testParseErrorsNameTheOptionAndComeFromTheDeclarations() throws {
        let folder = try makeFolder()
        let cases: [([String], String)] = [
            (["ls", "--catalog", "x"], "unknown option '--catalog'; did you mean '--catalogue'?"),
            (["run", "job.yml", "--wrkers", "2"], "unknown option '--wrkers'; did you mean '--workers'?"),
            (["run", "job.yml", "--frobnicate"], "unknown option '--frobnicate'\n"),
            (["run", "job.yml", "--workers"], "--workers needs a value"),
            (["run", "job.yml", "--workers", "--force"], "--workers needs a value"),
            (["run", "job.yml", "--workers", "0"], "--workers takes a number from 1 to 256, got '0'"),
            (["import", "photos", "--workers=300"], "--workers takes a number from 1 to 256, got '300'"),
            (["run", "job.yml", "--log-format", "xml"], "--log-format takes text, json or github, got 'xml'"),
            (["gc", "--dry-run=yes"], "--dry-run takes no value, got '--dry-run=yes'"),
            (["verify", "extra"], "verify takes no arguments, got 'extra'"),
            (["check", "--set", "=1", "job.yml"], "--set takes NAME=VALUE, got '=1'"),
            (["report", "--run", "first", "--out", "r.html"], "--run takes a run id or 'last', got 'first'"),
        ]
        for (arguments, message) in cases {
            let result = try TestSupport.album(arguments, in: folder)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            XCTAssert(result.stderr.contains("album: error: \(message)"), "\(arguments): \(result.stderr)")
            let name = arguments[0]
            let command = try XCTUnwrap(Album.command(named: name))
            XCTAssert(result.stderr.contains("\nusage: \(command.usage)\nRun 'album \(name) --help' for more."), result.stderr)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/album"), "no usage error touched a catalogue")
    }

    func testTheCatalogueOptionBehavesTheSameInEveryCommandThatTakesIt() throws {
        let takers = Album.commands.filter { $0.options.contains { $0.name == "--catalogue" } }
        XCTAssertEqual(Set(takers.map { $0.configuration.name }), Set(CommandLineTests.catalogueCommands.keys))
        for command in takers {
            let name = command.configuration.name
            let declared = try XCTUnwrap(command.options.first { $0.name == "--catalogue" })
            XCTAssertEqual(declared.valueName, "DIR", name)
            XCTAssertEqual(declared.aliases, ["-c"], name)
            let folder = try makeFolder()
            let given = [name] + CommandLineTests.catalogueCommands[name, default: []]
            for missing in [["--catalogue"], ["--catalogue="]] {
                let result = try TestSupport.album(given + missing, in: folder)
                XCTAssertEqual(result.status, 2, "\(given + missing): \(result.stderr)")
                XCTAssert(result.stderr.contains("album: error: --catalogue needs a value\nusage: album \(name)"), "\(name): \(result.stderr)")
            }
            let elsewhere = try TestSupport.album(given + ["--catalogue", "nowhere"], in: folder)
            switch name {
            case "run", "import", "watch":
                XCTAssertEqual(elsewhere.status, 0, "\(name) creates the catalogue it is given: \(elsewhere.stderr)")
                XCTAssert(FileManager.default.fileExists(atPath: "\(folder)/nowhere/\(Catalogue.databaseName)"), name)
            case "plan":
                XCTAssertEqual(elsewhere.status, 0, elsewhere.stderr)
                XCTAssert(elsewhere.stdout.contains("catalogue /") && elsewhere.stdout.contains("/nowhere\n"), elsewhere.stdout)
                XCTAssertFalse(FileManager.default.fileExists(atPath: "\(folder)/nowhere"), "plan writes nothing")
            default:
                XCTAssertEqual(elsewhere.status, 3, "\(name): \(elsewhere.stderr)")
                XCTAssert(elsewhere.stderr.contains("no catalogue at /") && elsewhere.stderr.contains("/nowhere"), "\(name): \(elsewhere.stderr)")
                XCTAssertFalse(FileManager.default.fileExists(atPath: "\(folder)/nowhere"), "\(name) creates no catalogue")
            }
            XCTAssertFalse(FileManager.default.fileExists(atPath: "\(folder)/album"), "\(name) used the catalogue it was given")
        }
    }

    /// docs/commands.md's worked example: `CountCommand` (one file) and its registry line are all a new command
    /// takes; its help, parsing, errors and place in the top-level help follow from its declarations.
    func testAddingACommandIsOneFileAndOneRegistryLine() throws {
        let folder = try TestSupport.temporaryFolder(self)
        try Catalogue(folder: folder + "/album", create: true, writing: true).close()
        let registry = CommandLineTests.registry
        let countRow = Album.help(for: registry).split(separator: "\n").first { $0.hasPrefix("  count ") }
        XCTAssertEqual(countRow?.split(separator: " ", maxSplits: 1).last?.trimmingCharacters(in: .whitespaces),
                       "Count the catalogue's photos.", Album.help(for: registry))
        XCTAssertEqual(CountCommand.usage, "album count [--catalogue DIR] [--format FORMAT] [--json]")
        XCTAssert(CountCommand.help.contains("\n  -c, --catalogue DIR  the catalogue folder (default: $ALBUM_CATALOGUE, else a config file's catalogue:, else ./album)\n"),
                  CountCommand.help)

        let parsed = try CountCommand.parse(["--json", "--format=png", "--catalogue", folder + "/album"])
        XCTAssertEqual(parsed.catalogue, folder + "/album")
        XCTAssertEqual(parsed.format, "png")
        XCTAssertTrue(parsed.json)
        XCTAssertEqual(try parsed.run(), .ok)

        XCTAssertEqual(Album.main(["count", "--catalogue", folder + "/album"], commands: registry), 0)
        XCTAssertEqual(Album.main(["count", "--help"], commands: registry), 0)
        XCTAssertEqual(Album.main(["help", "count"], commands: registry), 0)
        XCTAssertEqual(Album.main(["count", "--frmat", "png"], commands: registry), 2, "unknown option")
        XCTAssertEqual(Album.main(["count", "--format="], commands: registry), 2, "validate()")
        XCTAssertEqual(Album.main(["count", "photos"], commands: registry), 2, "declares no arguments, so takes none")
        XCTAssertEqual(Album.main(["count", "--catalogue", folder + "/nowhere"], commands: registry), 3, "no catalogue there")
        XCTAssertEqual(Album.main(["cuont"], commands: registry), 2)
        XCTAssertEqual(Album.main(["count"], commands: Album.commands), 2, "unregistered, it is an unknown command")
    }

    /// docs/commands.md shows the example's file and its help page as they are.
    func testTheWorkedExampleInTheDocsIsTheTestedOne() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let doc = try String(contentsOf: root.appendingPathComponent("docs/commands.md"), encoding: .utf8)
        let example = try String(contentsOf: root.appendingPathComponent("Tests/AlbumTests/Examples/CountCommand.swift"), encoding: .utf8)
        let blocks = doc.components(separatedBy: "```").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
        let code = try XCTUnwrap(blocks.first { $0.hasPrefix("swift\n") && $0.contains("struct CountCommand") })
        let declaration = try XCTUnwrap(example.range(of: "struct CountCommand"))
        XCTAssert(code.hasSuffix(String(example[declaration.lowerBound...])), "docs/commands.md shows CountCommand.swift as it is")
        XCTAssert(blocks.contains("\n" + CountCommand.help + "\n"), "docs/commands.md shows `album count --help` as it is")
    }
}
