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

            Two depths. The deep check (the default, or --deep) is all of the above. --quick is for routine use: it
            runs SQLite's quick_check (not integrity_check: no UNIQUE or index-against-table check), and compares
            every recorded file's stat with the catalogue (a rendition's size; an original's size, inode and
            modification time), reading no file. A rendition or original that is gone or whose size differs is the
            same problem as in the deep check; an original whose stat differs is listed as "changed since it was
            recorded" (a touch, an edit or damage: the deep check, or the next run, tells which), a state, not a
            problem. Bytes changed under an unchanged size (and, for an original, an unchanged stat) are only found
            by the deep check.

            The deep check can be limited and resumed, so a large library can be checked in parts. It walks the
            photos in id order, or, with --seed, in the order of SHA-256("SEED:ID"); --since takes only photos added,
            or with a rendition written by a run started, on or after a day; --sample N stops after N photos of the
            walk (drawing a seed, printed, when --seed is not given). Each photo's renditions, second originals and
            original are checked. It records where it is in the catalogue folder (verify.progress, written every few
            seconds and when --sample stops it); --resume continues that walk, with its order and its --since, after
            the last photo checked (--sample N: the next N). A check that reaches the end of its walk removes the
            file. The database checks run in full every time.

            exit status: 0 when all is sound, 1 when there are problems, 3 when the catalogue cannot be opened.
            """)

    @Option(SharedOptions.catalogue) var catalogue: String
    @Option(SharedOptions.json.helped("one JSON object: sound, problems (kind, path, photo, message), states and unfinished (docs/json.md)"))
    var json: Bool
    @Flag("--quick", help: "check at stat cost: SQLite's quick_check and every recorded file's size and modification time; no file is read")
    var quick: Bool
    @Flag("--deep", help: "re-hash every file of the photos checked (the default)") var deep: Bool
    @Option(.number("--sample", in: 1...Int(Int32.max), help: "deep: check only N photos of the walk (in --seed's order)"))
    var sample: Int?
    @Option(.value("--seed", "S", help: "deep: walk the photos in the order of SHA-256(\"S:ID\"); --sample prints the one it draws",
                   default: nil) { text in
        guard let seed = UInt64(text) else { throw UsageError("--seed takes a whole number from 0 to \(UInt64.max), got '\(text)'") }
        return seed
    })
    var seed: UInt64?
    @Option(.value("--since", "DATE", help: "deep: only photos added, or with a rendition written by a run started, on or after DATE (YYYY-MM-DD, YYYY-MM or YYYY)",
                   default: nil) { text in
        do { return try DateRange(parsing: text + "..") } catch { throw UsageError("--since: \(error)") }
    })
    var since: DateRange?
    @Flag("--resume", help: "deep: continue the walk the last limited or interrupted deep check recorded (verify.progress)")
    var resume: Bool
    @Option(SharedOptions.wait) var wait: LockWait?

    func validate() throws {
        if quick, deep { throw UsageError("--quick and --deep are two depths: give one of them") }
        if quick, sample != nil || seed != nil || since != nil || resume {
            throw UsageError("--sample, --seed, --since and --resume limit the deep check; --quick checks every file at stat cost")
        }
        if resume, seed != nil || since != nil {
            throw UsageError("--resume continues the recorded walk with its own order and --since: give --sample alone with it")
        }
    }

    /// The walk of the deep check: the one recorded (`--resume`), or a new one from the options.
    func walk(in folder: String) throws -> VerifyWalk {
        if resume {
            if var walk = try VerifyProgress.recorded(in: folder)?.walk {
                walk.sample = sample
                return walk
            }
            Console.err("album: no limited or interrupted deep check to resume in catalogue \(folder.shown): starting one")
        }
        return VerifyWalk(seed: seed ?? (sample != nil ? UInt64.random(in: 0...UInt64(UInt32.max)) : nil), since: since, sample: sample)
    }

    func run() throws -> ExitCode {
        let catalogue = try CatalogueReader.forVerifying(folder: self.catalogue)
        defer { catalogue.close() }
        if catalogue.isReadOnly {
            Console.err("album: catalogue \(catalogue.folder) is read-only to this user: checked without its lock, and runs still recorded as running were not marked interrupted")
        }
        let verifier = Verifier(catalogue)
        let depth: VerifyDepth = quick ? .quick : .deep
        let walk = depth == .deep ? try self.walk(in: catalogue.folder) : VerifyWalk()
        let outcome = try verifier.check(depth, walk: walk, recordingProgress: depth == .deep && !catalogue.isReadOnly)
        let (problems, states) = (outcome.problems, outcome.states)
        let unfinished = try verifier.unfinishedRenditions()
        if json {
            Console.out(JSONValue.object([
                ("catalogue", .string(catalogue.folder)), ("sound", .bool(problems.isEmpty)),
                ("problems", .array(problems.map(\.json))), ("states", states.json),
                ("depth", .string(depth == .quick ? "quick" : "deep")),
                ("checked", .object([("photos", .int(outcome.checkedPhotos)), ("seed", walk.seed.map { .string(String($0)) } ?? .null),
                                     ("since", .string(walk.since?.start)), ("finished", .bool(outcome.finished))])),
                ("changed", .array(outcome.changed.map(\.json))),
                ("unfinished", .array(unfinished.map { rendition in
                    .object([("path", .string(rendition.path)), ("photo", .string(rendition.photo)),
                             ("kind", .string(rendition.kind.rawValue)), ("run", .int(Int(rendition.run)))])
                })),
            ]).prettyText)
        } else {
            for problem in problems { Console.out(problem.description.shown) }
            for change in outcome.changed { Console.out(change.description.shown) }
            for rendition in unfinished {
                Console.out("\(rendition.path.shown): unfinished: run \(rendition.run) was writing this \(rendition.kind.rawValue) when it stopped (killed, or a power cut); it holds the old bytes or the new ones, and the next run writes it again (photo \(rendition.photo.prefix(8)))")
            }
            if let line = states.line { Console.out(line) }
        }
        if depth == .deep, !walk.isWhole || walk.seed != nil {
            let limits = [walk.seed.map { "seed \($0)" }, walk.since.map { "since \($0.start ?? "")" }, walk.after.map { _ in "resumed" }].compactMap { $0 }
            let next = outcome.finished ? "the walk is finished" : "album verify --resume\(sample.map { " --sample \($0)" } ?? "") continues it"
            Console.err("album: deep check of \(outcome.checkedPhotos) photo\(outcome.checkedPhotos == 1 ? "" : "s") (\(limits.joined(separator: ", "))): \(next)")
        }
        if problems.isEmpty {
            Console.err("album: catalogue \(catalogue.folder) is sound")
            return .ok
        }
        Console.err("album: \(problems.count) problem\(problems.count == 1 ? "" : "s") in catalogue \(catalogue.folder)")
        return .failures
    }
}
