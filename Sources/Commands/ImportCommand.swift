import Foundation
import System
import Core
import Catalogue
import Stages
import JobFile
import Run
import Service

/// `album import PATH...`: imports photos into a catalogue without a job file.
///
/// A shortcut for a job whose only stage is `import: {from: [PATH...]}`: the same `ImportStage`, run through the same
/// `JobRun` as `album run`, so an import from the command line and one from a job are the same.
struct ImportCommand: Command, WaitsForLock {
    static let configuration = CommandConfiguration(
        name: "import",
        abstract: "Import photos (files or folders) into a catalogue, without a job file.",
        discussion: """
            Each PATH is a photo or a folder (searched recursively for the image extensions, as the import stage's
            defaults). A '-' among the paths reads more paths from standard input, one per line (one that does not
            exist is a failed file, not an error that stops the import), e.g.
              find ~/Pictures -newer last-import | album import - --catalogue album

            exit status: 0 every file imported or skipped, 1 some files failed (each with its reason), or a folder
            gave no photos where the catalogue knows some from it (is it mounted? --allow-empty if it is meant to be
            empty), 2 usage error or a PATH that does not exist (no catalogue is created), 3 catalogue or
            environment error, or standard error could not be written.
            """)

    static let checksItsOutput = true

    /// The paths as given, `-` among them.
    @Positionals("PATH...") var given: [String]
    @Option(SharedOptions.catalogue.helped("the catalogue folder, created when missing")) var catalogue: String
    @Option(SharedOptions.workers.helped("photos imported at once")) var workers: Int?
    @Option(SharedOptions.allowEmpty) var allowEmpty: Bool
    @Option(SharedOptions.verbose) var verbose: Bool
    @Option(SharedOptions.wait) var wait: LockWait?

    /// The paths to import, absolute, with those read from standard input in place of `-` (read once, however
    /// often `-` is given), and those read from standard input: a missing one fails alone (`RunOptions.listedPaths`).
    func paths(standardInput: () -> Data) -> (paths: [String], listed: Set<String>) {
        var paths: [String] = []
        var listed: Set<String> = []
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
        return (paths.map { Paths.absolute($0) }, listed)
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
        let (paths, listed) = paths(standardInput: { FileHandle.standardInput.readDataToEndOfFile() })
        let stage = StageRegistry.source(from: paths)
        var options = RunOptions()
        options.workers = workers
        options.allowEmpty = allowEmpty
        options.listedPaths = listed
        let job = Job(name: "import", catalogue: catalogue, importStage: stage, path: nil, hash: nil)
        return try JobRun(job: job, options: options, output: RunOutput(verbose: verbose)).run()
    }
}
