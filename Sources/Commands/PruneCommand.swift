import Foundation
import System
import Core
import Catalogue
import Maintenance

/// `album prune`: brings the catalogue back to the truth: forgets missing photos and superseded versions, deletes
/// renditions no current look or parameter set would produce, and thins the history when asked.
struct PruneCommand: Command, WaitsForLock {
    static let configuration = CommandConfiguration(
        name: "prune",
        abstract: "Forget missing photos and old versions, delete old looks' and old parameters' files.",
        discussion: """
            Forgets photos whose original is gone (missing) and versions of an original that a newer version
            superseded, with their renditions; deletes renditions of the photos that stay which no current look or
            parameter set would produce (a look the photo no longer has; parameters neither a job's latest run
            that ended ok nor any later run applied, so a failed run leaves the working files); with --history,
            removes old skipped step rows. Rows go first, in one transaction, then the files, by
            `album rm`'s rules: never an original, never a file another catalogue exported, never an export that
            changed since album wrote it. Missing photos under a folder that is itself gone or empty (an unmounted
            share, a moved library) are kept, and named, unless --forget-unreachable. docs/catalogue.md, "Pruning".
            """)

    @Option(SharedOptions.catalogue) var catalogue: String
    @Option(SharedOptions.dryRun.helped("print what would be forgotten and deleted, and change nothing")) var dryRun: Bool
    @Option(SharedOptions.json) var json: Bool
    @Flag("--keep-missing", help: "keep photos whose original is gone, marked as kept") var keepMissing: Bool
    @Flag("--forget-unreachable", help: "forget missing photos even where their folder is itself gone or empty (not mounted?)")
    var forgetUnreachable: Bool
    @Option(.number("--keep-versions", in: 0...1_000_000, help: "keep the N newest superseded versions of each photo", defaultHelp: "0"))
    var keepVersions: Int?
    @Option(.number("--history", "KEEP", in: 0...1_000_000,
                    help: "keep only the skipped step rows of each photo's last KEEP runs (done and failed rows always stay)",
                    defaultHelp: "keep all"))
    var history: Int?
    @Option(SharedOptions.wait) var wait: LockWait?

    /// What to prune, from the options.
    var options: PruneOptions {
        var options = PruneOptions()
        options.keepMissing = keepMissing
        options.forgetUnreachable = forgetUnreachable
        options.keepVersions = keepVersions ?? 0
        options.history = history
        return options
    }

    func validate() throws {
        if options.keepMissing, options.forgetUnreachable {
            throw UsageError("--keep-missing keeps every missing photo, and --forget-unreachable forgets some: give one of them")
        }
    }

    func run() throws -> ExitCode {
        // A dry run reads only: no lock, no pre-write check, no byte of the catalogue written.
        let writer = dryRun ? nil : try Catalogue(folder: self.catalogue, create: false, writing: true)
        let catalogue = try writer ?? CatalogueReader(folder: self.catalogue)
        defer { catalogue.close() }
        try writer?.requireNoOpenDistributedRun("album prune")
        let pruner = Pruner(catalogue)
        let plan = try pruner.plan(options)
        if let writer { try Pruner.apply(plan, options: options, to: writer) }
        var outcome = PruneOutcome()
        for rendition in try pruner.files(of: plan) {
            let result = try pruner.prune(fileOf: rendition, plan: plan, deleting: !dryRun)
            outcome.note(result, of: rendition)
        }
        if !dryRun {
            // Shard folders left empty in the catalogue go too, as gc's do; the area folders themselves stay.
            for folder in outcome.folders(inside: catalogue.folder) { try? FileSystem.removeEmptyFolder(folder) }
        }
        if json {
            Console.out(PruneOutcome.json(plan, outcome, dryRun: dryRun).prettyText)
        } else {
            outcome.printLines(plan, dryRun: dryRun)
        }
        outcome.printNotes(plan, dryRun: dryRun)
        return outcome.failed.isEmpty ? .ok : .failures
    }
}
