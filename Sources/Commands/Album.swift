import Foundation
import SQLite
import System
import Vips
import Core
import YAML
import Catalogue

/// The `album` command line: picks the subcommand and turns every error into a message and an exit status.
public enum Album {
    /// The registry: every subcommand, once, in the order `album --help` lists them. Dispatch, `album help NAME`,
    /// "did you mean" and the top-level help are all made from this list, so a new command is its file plus a line here.
    static let commands: [any Command.Type] = [
        RunCommand.self, WatchCommand.self, ImportCommand.self, PlanCommand.self, LsCommand.self, ShowCommand.self, RunsCommand.self, ReportCommand.self,
        CaptionCommand.self, RelocateCommand.self, RmCommand.self, PruneCommand.self, VerifyCommand.self, GcCommand.self, CheckCommand.self, ParseCommand.self,
        ChunkCommand.self, MergeCommand.self, DistCommand.self, CompletionCommand.self,
    ]

    /// What album is, the first line of the top-level help and the manual page's NAME.
    static let abstract = "batch image processing for photo albums: import, filter, thumbnail, export, with a catalogue."

    /// The options `album` itself takes, before any command, as the top-level help lists them.
    static let helpOption = SharedOptions.help.helped("show help (also 'album COMMAND --help')")
    static let versionOption: Option<Bool> = .flag("--version", aliases: ["-V"], help: "show album's, libvips' and SQLite's versions")
    /// `album help --man`: the manual page (`ManPage`), in roff.
    static let manOption: Option<Bool> = .flag("--man", help: "with help: print the manual page, in roff (album help --man | man -l -)")

    /// album's exit statuses, as the top-level help and the manual page list them (README.md's table says more).
    static let exitStatuses: [(codes: [ExitCode], meaning: String)] = [
        ([.ok], "ok"),
        ([.failures], "some photos failed (verify: problems found; rm, gc: a file could not be deleted)"),
        ([.usage], "usage or job-file error"),
        ([.environment], "catalogue or environment error (catalogue in use, damaged, missing; output closed, full or broken)"),
        ([.retry], "album chunk only: trouble on this node, for the engine to run the chunk again"),
        ([.interrupted, .terminated], "interrupted (SIGINT, SIGTERM)"),
    ]

    /// Runs album with `arguments` (without the program name) and returns the exit status.
    ///
    /// Call `Console.prepareStandardStreams()` first, as `main.swift` does. A command that only prints exits 3 when
    /// a write to stdout or stderr failed (`checkingOutput`); `album run` and `album import` decide it themselves.
    public static func main(_ arguments: [String]) -> Int32 {
        // Over a file-size limit (ulimit -f), a write must fail with EFBIG and fail its step, not kill the process.
        ProcessSignals.ignoreFileSizeLimit()
        var checked = false, onlyReads = false
        let status = dispatch(arguments, checked: &checked, onlyReads: &onlyReads)
        return checked ? status : checkingOutput(ExitCode(rawValue: status) ?? .environment, onlyReads: onlyReads).rawValue
    }

    /// Runs `arguments` against `commands` instead of the registry (and without `main`'s process setup), its
    /// output checked as `main` checks it: how a test runs a command it declares itself (docs/commands.md).
    static func main(_ arguments: [String], commands: [any Command.Type]) -> Int32 {
        var checked = false, onlyReads = false
        let status = dispatch(arguments, commands: commands, checked: &checked, onlyReads: &onlyReads)
        return checked ? status : checkingOutput(ExitCode(rawValue: status) ?? .environment, onlyReads: onlyReads).rawValue
    }

    /// `status`, or 3 when a write to stdout or stderr failed (said on stderr when stderr still works). A usage
    /// or environment error keeps its own status. For a command that `onlyReads`, a stdout whose reader went away
    /// (EPIPE) is no failure: it ends quietly, as `ls | head` does.
    static func checkingOutput(_ status: ExitCode, onlyReads: Bool = false) -> ExitCode {
        var failures = Console.Stream.allCases.compactMap(Console.failure(of:))
        if onlyReads { failures.removeAll { $0.stream == .standardOutput && $0.isBrokenPipe } }
        guard let first = failures.first else { return status }
        if Console.failure(of: .standardError) == nil { Console.error("output closed: \(first.description)") }
        return status == .ok || status == .failures ? .environment : status
    }

    /// Runs the command; sets `checked` when the command has decided itself what a failed write means, and
    /// `onlyReads` for help, the version and a command that only reads (`Command.onlyReads`).
    private static func dispatch(_ arguments: [String], commands: [any Command.Type] = commands, checked: inout Bool,
                                 onlyReads: inout Bool) -> Int32 {
        onlyReads = true
        guard let first = arguments.first else {
            Console.err(help(for: commands))
            return ExitCode.usage.rawValue
        }
        if helpOption.declaration.names.contains(first) || first == "help" {
            return helpAsked(Array(arguments.dropFirst()), commands: commands)
        }
        if versionOption.declaration.names.contains(first) {
            Console.out(versionText)
            return 0
        }
        guard let type = command(named: first, in: commands) else {
            Console.error(unknownCommand(first, in: commands))
            return ExitCode.usage.rawValue
        }
        onlyReads = type.onlyReads
        let rest = Array(arguments.dropFirst())
        if Arguments.asksForHelp(rest) {
            onlyReads = true
            Console.out(type.help)
            return 0
        }
        do {
            let arguments = try Arguments(parsing: rest, for: type)
            let command = try type.parse(arguments)
            try command.validate()
            // Every command that records or compares a file hashes it; a libcrypto that cannot is exit 3 here, once.
            try SHA256.requireWorking()
            // `--wait[=SECONDS]`, declared by each command that takes the lock, reaches the lock from here.
            let wait = (command as? any WaitsForLock)?.wait
            let status = try CatalogueLock.$wait.withValue(wait) { try command.run() }
            checked = type.checksItsOutput
            return status.rawValue
        } catch let error as UsageError {
            Console.error("\(error.message)\nusage: \(type.usage)\nRun 'album \(type.configuration.name) --help' for more.")
            return ExitCode.usage.rawValue
        } catch let error as DiagnosticList {
            Console.err(error.rendered())
            return ExitCode.usage.rawValue
        } catch let error as CatalogueError {
            Console.error(CatalogueLocation.explained(error).message)
            return ExitCode.environment.rawValue
        } catch let error as AtomicFileError {
            Console.error(error.description)
            return ExitCode.environment.rawValue
        } catch let error as SourceError {
            Console.error(error.message)
            return error.exitCode.rawValue
        } catch let error as StageError {
            Console.error(error.message)
            return ExitCode.failures.rawValue
        } catch let error as SQLiteError where error.isCorrupt {
            // Met after the pre-write check (caption, rm, gc): the command stops without writing more.
            Console.error("the catalogue database is damaged (\(error.message)); album stopped and will not write to it. "
                          + "Run `album verify` for details, then restore it from a backup or move it away")
            return ExitCode.environment.rawValue
        } catch let error as SQLiteError where error.isMismatch {
            // A row that cannot be decoded: damage a structural check cannot see (bytes inside a value), or a file
            // another program wrote. Never a gap in what the command shows.
            Console.error("the catalogue database has a row album cannot read (\(error.message)); it is damaged or was "
                          + "changed by another program, and album stopped rather than show part of it. Run `album verify` "
                          + "for details, then restore it from a backup or move it away")
            return ExitCode.environment.rawValue
        } catch let error as VipsError {
            Console.error("libvips cannot start: \(error.message). Install libvips (apt-get install libvips42).")
            return ExitCode.environment.rawValue
        } catch {
            Console.error("\(error)")
            return ExitCode.environment.rawValue
        }
    }

    /// `album help [COMMAND] [--man]` (or `album --help …`): the top-level help, a command's help, the manual page,
    /// or the manual page with only COMMAND's section. A name that is no command is an error, as `album nosuch` is.
    private static func helpAsked(_ rest: [String], commands: [any Command.Type]) -> Int32 {
        let man = rest.contains(where: manOption.declaration.names.contains)
        let names = rest.filter { !manOption.declaration.names.contains($0) && !helpOption.declaration.names.contains($0) }
        guard names.count <= 1 else {
            Console.error("help takes one command, got \(names.count): \(names.joined(separator: " "))\nRun 'album --help' for the commands.")
            return ExitCode.usage.rawValue
        }
        guard let name = names.first else {
            Console.out(man ? ManPage(commands: commands).text : help(for: commands))
            return 0
        }
        guard let command = command(named: name, in: commands) else {
            Console.error(unknownCommand(name, in: commands))
            return ExitCode.usage.rawValue
        }
        Console.out(man ? ManPage(commands: [command]).text : command.help)
        return 0
    }

    static var versionText: String {
        "album \(Software.albumVersion)\nlibvips \(Vips.version)\nSQLite \(Database.libraryVersion)"
    }

    /// The registered command called `name`, if any.
    static func command(named name: String, in commands: [any Command.Type] = commands) -> (any Command.Type)? {
        commands.first { $0.configuration.name == name }
    }

    /// `unknown command 'rnu'; did you mean 'run'?`, and where to look.
    static func unknownCommand(_ name: String, in commands: [any Command.Type] = commands) -> String {
        var message = "unknown command '\(name)'"
        if let near = Suggest.nearest(to: name, in: commands.map { $0.configuration.name }) { message += "; did you mean '\(near)'?" }
        return message + "\nRun 'album --help' for the commands."
    }

    static var help: String { help(for: commands) }

    /// The top-level help: one line per registered command, in the registry's order, from its configuration.
    static func help(for commands: [any Command.Type]) -> String {
        let width = commands.map { $0.configuration.name.count }.max() ?? 0
        let rows = commands.map { "  \($0.configuration.name.padding(toLength: max(width + 2, 10), withPad: " ", startingAt: 0))\($0.configuration.abstract)" }
        let statuses = exitStatuses.map { codes, meaning in
            "  " + codes.map { String($0.rawValue) }.joined(separator: "/").padding(toLength: 9, withPad: " ", startingAt: 0) + meaning
        }
        return """
            album: \(abstract)

            usage: album COMMAND [OPTIONS]

            commands:
            \(rows.joined(separator: "\n"))

            options:
            \(CommandConfiguration.optionLines([helpOption, versionOption, manOption].map(\.declaration)).joined(separator: "\n"))

            exit status:
            \(statuses.joined(separator: "\n"))

            See README.md and docs/ for job files.
            """
    }
}
