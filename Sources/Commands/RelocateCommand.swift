import System
import Core
import Catalogue
import Run

/// `album relocate --from OLD --to NEW`: rewrites the recorded paths of originals (and of exports outside the
/// catalogue) that moved from under OLD to under NEW, as a run of job 'relocate'.
struct RelocateCommand: Command, WaitsForLock {
    static let configuration = CommandConfiguration(
        name: "relocate",
        abstract: "Rewrite the paths of originals that moved (prefix OLD becomes NEW).",
        discussion: """
            For originals that moved elsewhere: every recorded path under OLD (the folder itself or anything in it)
            becomes the same path under NEW, for photos' originals and for renditions recorded outside the catalogue
            (exports). Nothing is read, hashed or rendered, so a rerun afterwards skips every step. A catalogue moved
            with its library needs no relocate: paths under the catalogue folder's parent are stored relative to it.
            The change is a run of job 'relocate', so `album runs` lists it. Exits 1 when some rewritten path has no
            file at its new place (it is still rewritten: check NEW, or relocate again).
            """)

    @Option(SharedOptions.catalogue) var catalogue: String
    @Option(.text("--from", "OLD", help: "the folder the originals were recorded under")) var from: String?
    @Option(.text("--to", "NEW", help: "the folder they are under now")) var to: String?
    @Option(SharedOptions.dryRun.helped("print what would be rewritten, and change nothing")) var dryRun: Bool
    @Option(SharedOptions.json) var json: Bool
    @Option(SharedOptions.wait) var wait: LockWait?

    func validate() throws {
        guard let from, !from.isEmpty else { throw UsageError("relocate needs --from OLD, the folder the originals were recorded under") }
        guard let to, !to.isEmpty else { throw UsageError("relocate needs --to NEW, the folder they are under now") }
        if Paths.absolute(from) == Paths.absolute(to) { throw UsageError("--from and --to name the same folder, \(Paths.absolute(from))") }
    }

    func run() throws -> ExitCode {
        let old = Paths.absolute(from ?? ""), new = Paths.absolute(to ?? "")
        let writer = dryRun ? nil : try Catalogue(folder: self.catalogue, create: false, writing: true)
        let catalogue = try writer ?? CatalogueReader(folder: self.catalogue)
        defer { catalogue.close() }
        try writer?.requireNoOpenDistributedRun("album relocate")
        let moves = try catalogue.relocations(from: old, to: new)
        let run = moves.isEmpty ? nil : try writer?.relocate(moves, software: Software.current)
        let missing = moves.filter { !FileSystem.exists($0.to) }
        if json {
            Console.out(JSONValue.object([
                ("from", .string(old)), ("to", .string(new)), ("dry_run", .bool(dryRun)),
                ("run", run.map { .int(Int($0)) } ?? .null),
                ("paths", .array(moves.map { move in
                    .object([("photo", .string(move.photo)), ("kind", .string(move.label)),
                             ("from", .string(move.from)), ("to", .string(move.to)), ("found", .bool(FileSystem.exists(move.to)))])
                })),
            ]).prettyText)
        } else {
            for move in moves {
                Console.out("\(dryRun ? "would move" : "moved") \(move.photo.prefix(8)) \(move.label): \(move.from.shown) -> \(move.to.shown)\(FileSystem.exists(move.to) ? "" : " (not found there)")")
            }
        }
        let originals = moves.filter { $0.kind == nil }.count
        let what = "\(originals) original\(originals == 1 ? "" : "s") and \(moves.count - originals) rendition\(moves.count - originals == 1 ? "" : "s")"
        Console.err("album: relocate \(dryRun ? "would rewrite" : "rewrote") \(what) from \(old) to \(new)\(run.map { " (run \($0))" } ?? "")")
        if !missing.isEmpty {
            Console.error("\(missing.count) of the rewritten paths have no file at their new place, e.g. \(missing[0].to)")
            return .failures
        }
        return .ok
    }
}
