import Foundation
import Core
import Catalogue
import Maintenance

/// What `album prune` did to the files, and how it says what it did: a line per photo and rendition forgotten on
/// stdout (or one JSON object), notes and the summary on stderr.
struct PruneOutcome {
    var deleted: [Rendition] = []
    var bytes = 0
    var kept: [(path: String, why: String)] = []
    var failed: [(path: String, why: String)] = []

    mutating func note(_ result: PrunedFile, of rendition: Rendition) {
        switch result {
        case .deleted(let size):
            deleted.append(rendition)
            bytes += size
        case .gone: break
        case .kept(let why): kept.append((rendition.path, why))
        case .failed(let why): failed.append((rendition.path, why))
        }
    }

    /// The folders inside `catalogue` that held deleted files, deepest first, not the area folders themselves.
    func folders(inside catalogue: String) -> [String] {
        let folders = Set(deleted.map { ($0.path as NSString).deletingLastPathComponent }.filter {
            $0.hasPrefix(catalogue + "/") && $0.dropFirst(catalogue.count + 1).contains("/")
        })
        return folders.sorted(by: >)
    }

    func printLines(_ plan: PrunePlan, dryRun: Bool) {
        for forgotten in plan.forgotten {
            Console.out("\(dryRun ? "would forget" : "forgot") \(forgotten.photo.id.prefix(8)) \(forgotten.photo.path.shown) (\(forgotten.state.rawValue))")
        }
        for old in plan.oldRenditions {
            let rendition = old.rendition
            Console.out("\(dryRun ? "would forget" : "forgot") \(rendition.kind.rawValue) of \(rendition.photo.prefix(8)) \(rendition.path.shown) (\(old.why))")
        }
    }

    func printNotes(_ plan: PrunePlan, dryRun: Bool) {
        for folder in plan.unreachable {
            let count = folder.photos.count
            Console.err("album: kept \(count) missing photo\(count == 1 ? "" : "s") under \(folder.folder), which is \(folder.why.rawValue): "
                        + "is it mounted? album relocate if it moved; --forget-unreachable to forget them")
        }
        if !plan.keptMissing.isEmpty {
            Console.err("album: kept \(plan.keptMissing.count) missing photo\(plan.keptMissing.count == 1 ? "" : "s") (--keep-missing, now or before); album rm forgets one")
        }
        if !plan.keptCopies.isEmpty {
            Console.err("album: kept \(plan.keptCopies.count) missing photo\(plan.keptCopies.count == 1 ? "" : "s") whose original the catalogue keeps a copy of (mode: copy); album rm forgets one")
        }
        if !plan.keptCopiedVersions.isEmpty {
            let count = plan.keptCopiedVersions.count
            Console.err("album: kept \(count) earlier version\(count == 1 ? "" : "s") whose bytes the catalogue keeps a copy of (mode: copy), the only copy once the original was edited; album rm forgets one")
        }
        if !plan.keptHeld.isEmpty {
            Console.err("album: kept \(plan.keptHeld.count) earlier version\(plan.keptHeld.count == 1 ? "" : "s") whose bytes another name still holds (an alias); album rm forgets one")
        }
        for job in plan.unproven {
            Console.err("album: kept renditions only the parameters of job \(job) could prove old: that run did not record its stages (an older album); run the job again, then prune")
        }
        for file in kept { Console.err("album: kept \(file.path.shown): \(file.why.shown)") }
        for file in failed { Console.error("cannot delete \(file.path.shown): \(file.why.shown)") }
        let missing = plan.forgotten.filter { $0.state == .missing }.count
        let photos = "\(plan.forgotten.count) photo\(plan.forgotten.count == 1 ? "" : "s") (\(missing) missing, \(plan.forgotten.count - missing) superseded)"
        let renditions = "\(plan.oldRenditions.count) old rendition\(plan.oldRenditions.count == 1 ? "" : "s")"
        let files = "\(deleted.count) file\(deleted.count == 1 ? "" : "s"), \(bytes) bytes"
        let history = "\(plan.historyRows) history row\(plan.historyRows == 1 ? "" : "s")"
        let aliases = plan.forgottenAliases.count
        if aliases > 0 {
            Console.err("album: \(dryRun ? "would forget" : "forgot") \(aliases) other name\(aliases == 1 ? "" : "s") of photos whose file is gone (aliases)")
        }
        for second in plan.forgottenSeconds {
            Console.err("album: \(dryRun ? "would forget" : "forgot") the second original \(second.path.shown) of photo \(second.photo.prefix(8)): its file is gone; the photo stays, with its original")
        }
        Console.err(dryRun ? "album: prune would forget \(photos) and \(renditions), delete \(files) and remove \(history); nothing changed (--dry-run)"
                           : "album: prune forgot \(photos) and \(renditions), deleted \(files) and removed \(history)")
    }

    /// `--json`: the whole summary, shaped as docs/commands.md shows.
    static func json(_ plan: PrunePlan, _ outcome: PruneOutcome, dryRun: Bool) -> JSONValue {
        let files = { (list: [(path: String, why: String)]) in
            JSONValue.array(list.map { .object([("path", .string($0.path)), ("why", .string($0.why))]) })
        }
        return .object([
            ("dry_run", .bool(dryRun)),
            ("photos", .object([
                ("forgotten", .array(plan.forgotten.map {
                    .object([("id", .string($0.photo.id)), ("path", .string($0.photo.path)), ("state", .string($0.state.rawValue))])
                })),
                ("kept_missing", .array(plan.keptMissing.map { .string($0) })),
                ("kept_copies", .array(plan.keptCopies.map { .string($0) })),
                ("kept_copied_versions", .array(plan.keptCopiedVersions.map { .string($0) })),
                ("kept_held", .array(plan.keptHeld.map { .string($0) })),
                ("unreachable", .array(plan.unreachable.map {
                    .object([("folder", .string($0.folder)), ("why", .string($0.why.rawValue)), ("photos", .array($0.photos.map { .string($0) }))])
                })),
                ("kept_versions", .int(plan.keptVersions)),
            ])),
            ("aliases", .array(plan.forgottenAliases.map {
                .object([("photo", .string($0.photo)), ("path", .string($0.path))])
            })),
            ("second_originals", .array(plan.forgottenSeconds.map {
                .object([("photo", .string($0.photo)), ("path", .string($0.path)), ("why", .string("its file is gone"))])
            })),
            ("renditions", .array(plan.oldRenditions.map {
                .object([("photo", .string($0.rendition.photo)), ("kind", .string($0.rendition.kind.rawValue)),
                         ("path", .string($0.rendition.path)), ("why", .string($0.why))])
            })),
            ("unproven", .array(plan.unproven.map { .string($0) })),
            ("files", .object([("deleted", .int(outcome.deleted.count)), ("bytes", .int(outcome.bytes)),
                               ("kept", files(outcome.kept)), ("failed", files(outcome.failed))])),
            ("history_rows", .int(plan.historyRows)),
        ])
    }
}
