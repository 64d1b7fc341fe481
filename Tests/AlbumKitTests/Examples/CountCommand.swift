@testable import AlbumKit

/// `album count`: how many photos a catalogue holds. docs/commands.md's worked example of a new command, whole:
/// this file, plus its line in the registry (`Album.commands`; here `CommandLineTests.registry`), is all it takes.
struct CountCommand: Command {
    static let configuration = CommandConfiguration(
        name: "count",
        abstract: "Count the catalogue's photos.",
        discussion: "Prints how many photos the catalogue holds, or how many are in FORMAT.",
        options: [SharedOptions.catalogue, format, SharedOptions.json])

    static let format: Option<String?> = .text("--format", "FORMAT", help: "count only the photos in this format (jpeg, png, ...)")

    var catalogue: String
    var format: String?
    var json: Bool

    init(_ arguments: Arguments) throws {
        catalogue = try arguments.value(of: SharedOptions.catalogue)
        format = try arguments.value(of: CountCommand.format)
        json = try arguments.value(of: SharedOptions.json)
    }

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
