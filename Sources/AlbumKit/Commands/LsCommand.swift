import Foundation

/// `album ls`: the catalogue's photos, newest added first, as a table or JSON.
struct LsCommand: Command {
    static let configuration = CommandConfiguration(
        name: "ls",
        abstract: "List the catalogue's photos, newest added first.",
        usage: "album ls [--catalogue DIR] [--json] [--taken RANGE] [--added RANGE] [--filter NAME] [--path GLOB] [--caption TEXT] [--camera TEXT] [--format FORMAT] [--missing thumbnail|export] [--failed last-run]",
        help: """
            options:
              --catalogue DIR  the catalogue folder (default: ./album)
              --json           a JSON array, one object per photo
              --taken RANGE    capture day or range: 2008-04-20, 2008-04-01..2008-04-30, 2008-04-01.., ..2008-04-30
              --added RANGE    import day or range, the same forms
              --filter NAME    the applied preset (none, sepia, noir, vivid, or a job's own)
              --path GLOB      a glob on the original's path
              --caption TEXT   captions containing TEXT (any case)
              --camera TEXT    cameras containing TEXT (any case)
              --format FORMAT  jpeg, png, webp, heif, avif, tiff, gif or jxl
              --missing KIND   photos with no thumbnail (or export) whose file is still there
              --failed last-run
                               photos with a failed step in the newest job run
            The selectors are the job file's select: keys, ANDed. The count goes to stderr.
            """)

    var catalogue: String
    var json: Bool
    var selection = Selection()

    init(arguments: inout Arguments) throws {
        catalogue = try arguments.option("--catalogue") ?? "album"
        json = arguments.flag("--json")
        do {
            selection.taken = try arguments.option("--taken").map { try DateRange(parsing: $0) }
            selection.added = try arguments.option("--added").map { try DateRange(parsing: $0) }
        } catch let error as StageError {
            throw UsageError(error.message)
        }
        selection.filter = try arguments.option("--filter")
        selection.path = try arguments.option("--path").map { Paths.absolute($0) }
        selection.caption = try arguments.option("--caption")
        selection.camera = try arguments.option("--camera")
        selection.format = try arguments.option("--format")
        selection.missing = try LsCommand.choice(arguments.option("--missing"), "--missing", Selection.Missing.self)
        selection.failed = try LsCommand.choice(arguments.option("--failed"), "--failed", Selection.Failed.self)
        let rest = try arguments.positionals()
        guard rest.isEmpty else { throw UsageError("ls takes no arguments, got '\(rest[0])'") }
    }

    func run() throws -> ExitCode {
        let catalogue = try Catalogue(folder: self.catalogue, readOnly: true)
        defer { catalogue.close() }
        let selection = try self.selection.resolved(in: catalogue)
        let photos = try catalogue.allPhotos().filter(selection.matches)
        if json {
            Console.out(JSONValue.array(photos.map(\.json)).prettyText)
            return .ok
        }
        var table = TextTable(["id", "taken", "added", "size", "format", "filter", "caption", "path"])
        for photo in photos {
            table.append([String(photo.id.prefix(8)), photo.taken.map { String($0.prefix(19)) } ?? "-",
                          String(photo.added.prefix(19)), "\(photo.width)x\(photo.height)", photo.format, photo.filter,
                          photo.caption.map { TextTable.clipped($0, to: 30) } ?? "-", photo.path])
        }
        Console.out(table.rendered)
        Console.err("\(photos.count) photo\(photos.count == 1 ? "" : "s")")
        return .ok
    }

    /// An option's value as one of `E`'s cases, or a usage error listing them.
    static func choice<E: RawRepresentable & CaseIterable>(_ text: String?, _ name: String, _: E.Type) throws -> E?
    where E.RawValue == String {
        guard let text else { return nil }
        guard let value = E(rawValue: text) else {
            throw UsageError("\(name) takes \(E.allCases.map(\.rawValue).joined(separator: " or ")), got '\(text)'")
        }
        return value
    }
}
