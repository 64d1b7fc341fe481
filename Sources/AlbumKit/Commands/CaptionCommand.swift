/// `album caption ID TEXT`: sets a photo's caption, recorded in its history like any other step.
struct CaptionCommand: Command {
    static let configuration = CommandConfiguration(
        name: "caption",
        abstract: "Set a photo's caption (recorded in its history).",
        usage: "album caption ID TEXT [--catalogue DIR]",
        help: """
            ID is a photo's id or any unique start of it. An empty TEXT ("") removes the caption. The change is a run
            of job 'caption' with one caption step, so `album show ID` lists it and `album runs` counts it.

            options:
              --catalogue DIR  the catalogue folder (default: ./album)
            """)

    var catalogue: String
    var id: String
    var text: String

    init(arguments: inout Arguments) throws {
        catalogue = try arguments.option("--catalogue") ?? "album"
        let rest = try arguments.positionals()
        guard rest.count == 2 else {
            throw UsageError("caption takes a photo id and the caption text (quote it), got \(rest.count) argument\(rest.count == 1 ? "" : "s")")
        }
        id = rest[0]
        text = rest[1]
    }

    func run() throws -> ExitCode {
        let catalogue = try Catalogue(folder: self.catalogue, create: false, writing: true)
        defer { catalogue.close() }
        let photo = try PhotoArgument.resolve(id, in: catalogue)
        let caption = text.isEmpty ? nil : text
        let (run, changed) = try catalogue.setCaption(caption, of: photo, software: Software.current)
        let what = caption.map { "caption set to \"\($0)\"" } ?? "caption removed"
        Console.err("album: \(photo.id.prefix(8)) \(photo.path): \(changed ? what : "caption unchanged") (run \(run))")
        return .ok
    }
}
