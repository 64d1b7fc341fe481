import Core
import Catalogue
import Maintenance

/// `album verify`: checks the database and re-hashes every file the catalogue records.
struct VerifyCommand: Command, WaitsForLock {
    /// Only reads: a reader of its stdout that goes away ends it quietly (`Command.onlyReads`).
    static let onlyReads = true
    static let configuration = CommandConfiguration(
        name: "verify",
        abstract: "Check the catalogue: database integrity, every recorded file and its hash.",
        discussion: """
            Runs SQLite's integrity and foreign-key checks, looks for rows that point at missing photos or runs,
            and re-hashes every rendition (filtered images, thumbnails, exports) and every original (or the
            catalogue's copy of it) against the SHA-256 recorded. Prints one line per problem: the path, then what
            is wrong. Files no row records are not problems: `album gc` lists those.

            A photo's state is not a problem, and verify lists the states on one line after the problems
            ("states: 1 superseded, 1 missing (kept)"): a superseded version's original is not checked; a changed
            original (an edit: its stat and bytes differ) is the next run's to import; a missing original that
            `album prune --keep-missing` kept was the user's choice. A missing original is a problem otherwise, and
            so is one whose stat is as recorded but whose bytes are not (damaged on disk).

            A file a run was replacing when it stopped (killed, or a power cut) is listed as "unfinished", with the
            run: its row records no bytes until a run writes the file again, so it is not a problem.

            verify takes the catalogue's lock, so files do not change while it reads them; it never changes them.
            On a catalogue this user cannot write (another user's, a read-only mount, a backup) it checks without
            the lock and says so, and leaves runs recorded as running as they are.

            exit status: 0 when all is sound, 1 when there are problems, 3 when the catalogue cannot be opened.
            """)

    @Option(SharedOptions.catalogue) var catalogue: String
    @Option(SharedOptions.json.helped("one JSON object: sound, problems (kind, path, photo, message), states and unfinished (docs/json.md)"))
    var json: Bool
    @Option(SharedOptions.wait) var wait: LockWait?

    func run() throws -> ExitCode {
        let catalogue = try CatalogueReader.forVerifying(folder: self.catalogue)
        defer { catalogue.close() }
        if catalogue.isReadOnly {
            Console.err("album: catalogue \(catalogue.folder) is read-only to this user: checked without its lock, and runs still recorded as running were not marked interrupted")
        }
        let verifier = Verifier(catalogue)
        let (problems, states) = try verifier.verifyWithStates()
        let unfinished = try verifier.unfinishedRenditions()
        if json {
            Console.out(JSONValue.object([
                ("catalogue", .string(catalogue.folder)), ("sound", .bool(problems.isEmpty)),
                ("problems", .array(problems.map(\.json))), ("states", states.json),
                ("unfinished", .array(unfinished.map { rendition in
                    .object([("path", .string(rendition.path)), ("photo", .string(rendition.photo)),
                             ("kind", .string(rendition.kind.rawValue)), ("run", .int(Int(rendition.run)))])
                })),
            ]).prettyText)
        } else {
            for problem in problems { Console.out(problem.description.shown) }
            for rendition in unfinished {
                Console.out("\(rendition.path.shown): unfinished: run \(rendition.run) was writing this \(rendition.kind.rawValue) when it stopped (killed, or a power cut); it holds the old bytes or the new ones, and the next run writes it again (photo \(rendition.photo.prefix(8)))")
            }
            if let line = states.line { Console.out(line) }
        }
        if problems.isEmpty {
            Console.err("album: catalogue \(catalogue.folder) is sound")
            return .ok
        }
        Console.err("album: \(problems.count) problem\(problems.count == 1 ? "" : "s") in catalogue \(catalogue.folder)")
        return .failures
    }
}
