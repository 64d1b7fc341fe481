@testable import Core
@testable import Catalogue
@testable import Commands


/// `album count`: how many photos a catalogue holds. docs/commands.md's worked example of a new command, whole:
/// this file, plus its line in the registry (`Album.commands`; here `CommandLineTests.registry`), is all it takes.
struct CountCommand: Command {
    static let configuration = CommandConfiguration(
        name: "count",
        abstract: "Count the catalogue's photos.",
        discussion: "Prints how many photos the catalogue holds, or how many are in FORMAT.")

    @Option(SharedOptions.catalogue) var catalogue: String
    @Option(.text("--format", "FORMAT", help: "count only the photos in this format (jpeg, png, ...)")) var format: String?
    @Option(SharedOptions.json) var json: Bool

    func validate() throws {
        if format == "" { throw UsageError("--format needs a format, e.g. jpeg") }
    }

    func run() throws -> ExitCode {
        let catalogue = try CatalogueReader(folder: self.catalogue)
        defer { catalogue.close() }
        let count = try catalogue.allPhotos().filter { format == nil || $0.format == format }.count
        Console.out(json ? JSONValue.object([("photos", .int(count))]).text : String(count))
        return .ok
    }
}
