import Foundation
import System

/// `album import PATH...`: imports photos into a catalogue without a job file.
///
/// A shortcut for a job whose only stage is `import: {from: [PATH...]}`: the same `ImportStage`, run through the same
/// `JobRun` as `album run`, so an import from the command line and one from a job are the same.
struct ImportCommand: Command {
    static let configuration = CommandConfiguration(
        name: "import",
        abstract: "Import photos (files or folders) into a catalogue, without a job file.",
        arguments: "PATH...",
        discussion: """
            Each PATH is a photo or a folder (searched recursively for the image extensions, as the import stage's
            defaults). A '-' among the paths reads more paths from standard input, one per line (one that does not
            exist is a failed file, not an error that stops the import), e.g.
              find ~/Pictures -newer last-import | album import - --catalogue album

            exit status: 0 every file imported or skipped, 1 some files failed (each with its reason), or a folder
            gave no photos where the catalogue knows some from it (is it mounted? --allow-empty if it is meant to be
            empty), 2 usage error or a PATH that does not exist (no catalogue is created), 3 catalogue or
            environment error, or standard error could not be written.
            """,
        options: [catalogueOption, workersOption, SharedOptions.allowEmpty, SharedOptions.verbose, SharedOptions.wait])

    static let catalogueOption = SharedOptions.catalogue.helped("the catalogue folder, created when missing")
    static let workersOption = SharedOptions.workers.helped("photos imported at once")

    static let checksItsOutput = true

    /// The paths as given, `-` among them.
    var given: [String]
    /// The paths to import, absolute, with those read from standard input in place of `-`.
    var paths: [String]
    /// The paths read from standard input, absolute: a missing one fails alone (`RunOptions.listedPaths`).
    var listed: Set<String> = []
    var catalogue: String
    var options = RunOptions()
    var verbose = false

    init(_ arguments: Arguments) throws {
        try self.init(arguments, standardInput: { FileHandle.standardInput.readDataToEndOfFile() })
    }

    /// Reads the arguments; `standardInput` is read only when a path is `-`.
    init(_ arguments: Arguments, standardInput: () -> Data) throws {
        catalogue = try arguments.value(of: ImportCommand.catalogueOption)
        options.workers = try arguments.value(of: ImportCommand.workersOption)
        verbose = try arguments.value(of: SharedOptions.verbose)
        options.allowEmpty = try arguments.value(of: SharedOptions.allowEmpty)
        given = arguments.positionals
        var paths: [String] = []
        var readStandardInput = false
        for path in given {
            if path == "-" {
                guard !readStandardInput else { continue }  // standard input can be read once
                readStandardInput = true
                let lines = ImportCommand.lines(standardInput())
                paths += lines
                listed.formUnion(lines.map { Paths.absolute($0) })
            } else {
                paths.append(path)
            }
        }
        self.paths = paths.map { Paths.absolute($0) }
    }

    func validate() throws {
        guard !given.isEmpty else { throw UsageError("import needs at least one photo or folder, or '-' to read paths from standard input") }
    }

    /// The paths in a list read from standard input: one per line, `\n` or `\r\n`, blank lines ignored. Nothing else
    /// is trimmed, since a file name may begin or end with a space. A line is bytes: one that is not UTF-8 keeps
    /// them (`NativePath`), so it names its own file.
    static func lines(_ data: Data) -> [String] {
        data.split(separator: UInt8(ascii: "\n")).compactMap { line in
            let bytes = line.last == UInt8(ascii: "\r") ? line.dropLast() : line[...]
            return bytes.isEmpty ? nil : NativePath.string(Array(bytes))
        }
    }

    func run() throws -> ExitCode {
        let stage = StageRegistry.source(from: paths)
        var options = options
        options.listedPaths = listed
        let job = Job(name: "import", catalogue: catalogue, importStage: stage, path: nil, hash: nil)
        return try JobRun(job: job, options: options, output: RunOutput(verbose: verbose)).run()
    }
}
