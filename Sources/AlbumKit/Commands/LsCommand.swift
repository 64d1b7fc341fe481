import Foundation

/// `album ls`: the catalogue's photos, newest added first, as a table or JSON.
struct LsCommand: Command {
    static let configuration = CommandConfiguration(
        name: "ls",
        abstract: "List the catalogue's photos, newest added first.",
        usage: "album ls [--catalogue DIR] [--json] [--taken RANGE] [--added RANGE] [--filter NAME] [--path GLOB] [--caption TEXT] [--camera TEXT] [--format FORMAT]",
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
        let rest = try arguments.positionals()
        guard rest.isEmpty else { throw UsageError("ls takes no arguments, got '\(rest[0])'") }
    }

    func run() throws -> ExitCode {
        let catalogue = try Catalogue(folder: self.catalogue, create: false)
        defer { catalogue.close() }
        let photos = try catalogue.allPhotos().filter(selection.matches)
        if json {
            Console.out(JSONValue.array(photos.map(LsCommand.json)).prettyText)
            return .ok
        }
        Console.out("id        taken                added                 size       filter  path")
        for photo in photos {
            let size = "\(photo.width)x\(photo.height)"
            Console.out("\(photo.id.prefix(8))  \((photo.taken ?? "-").padding(toLength: 19, withPad: " ", startingAt: 0))  \(photo.added.prefix(19))   \(size.padding(toLength: 9, withPad: " ", startingAt: 0))  \(photo.filter.padding(toLength: 6, withPad: " ", startingAt: 0))  \(photo.path)")
        }
        Console.err("\(photos.count) photo\(photos.count == 1 ? "" : "s")")
        return .ok
    }

    /// The JSON object for one photo.
    static func json(_ photo: PhotoRecord) -> JSONValue {
        .object([
            ("id", .string(photo.id)), ("path", .string(photo.path)), ("hash", .string(photo.hash)),
            ("taken", .string(photo.taken)), ("added", .string(photo.added)), ("width", .int(photo.width)),
            ("height", .int(photo.height)), ("format", .string(photo.format)), ("filter", .string(photo.filter)),
            ("caption", .string(photo.caption)), ("camera", .string(photo.camera)),
        ])
    }
}
