import Core
import Catalogue
import Run

/// `album caption PHOTO TEXT`: sets a photo's caption, recorded in its history like any other step.
struct CaptionCommand: Command, WaitsForLock {
    static let configuration = CommandConfiguration(
        name: "caption",
        abstract: "Set a photo's caption (recorded in its history).",
        discussion: """
            PHOTO is the path of the photo's original (anything holding a / or naming an existing file is a path),
            or its id or any unique start of it, as `album show` takes it. An empty TEXT ("") removes the caption.
            The change is a run of job 'caption' with one caption step, so `album show PHOTO` lists it and
            `album runs` counts it.
            """)

    @Positionals("PHOTO TEXT") var given: [String]
    @Option(SharedOptions.catalogue) var catalogue: String
    @Option(SharedOptions.wait) var wait: LockWait?

    var photo: String { given[0] }
    var text: String { given[1] }

    func validate() throws {
        guard given.count == 2 else {
            throw UsageError("caption takes a photo (its id or its path) and the caption text (quote it), got \(given.count) argument\(given.count == 1 ? "" : "s")")
        }
    }

    func run() throws -> ExitCode {
        let catalogue = try Catalogue(folder: self.catalogue, create: false, writing: true)
        defer { catalogue.close() }
        let photo = try PhotoArgument.resolve(self.photo, in: catalogue)
        let caption = text.isEmpty ? nil : text
        let (run, changed) = try catalogue.setCaption(caption, of: photo, software: Software.current)
        let what = caption.map { "caption set to \"\($0.shown)\"" } ?? "caption removed"
        Console.err("album: \(photo.id.prefix(8)) \(photo.path.shown): \(changed ? what : "caption unchanged") (run \(run))")
        return .ok
    }
}
