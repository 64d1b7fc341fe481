import Core
import System
import Catalogue
import JobFile
import Plan
import Stages

/// `album plan JOBFILE`: what `album run` would do, stage by stage, without doing or writing anything.
struct PlanCommand: Command {
    /// Only reads: a reader of its stdout that goes away ends it quietly (`Command.onlyReads`).
    static let onlyReads = true
    static let configuration = CommandConfiguration(
        name: "plan",
        abstract: "Show what running a job would do, stage by stage, without doing it.",
        discussion: """
            For each stage: how many photos are to do, already up to date, or left out by 'select:'. Nothing is
            read beyond file names, sizes and the catalogue, and nothing is written. 'album run JOBFILE --dry-run'
            prints the same.
            """)

    @Positionals("JOBFILE") var given: [String]
    @Option(SharedOptions.jobCatalogue.helped("plan against this catalogue instead of the job's 'catalogue:'")) var catalogue: String?
    @Option(SharedOptions.force.helped("plan as 'album run --force' would run: every selected step to do")) var force: Bool
    @Option(SharedOptions.set) var variables: [String: String]
    @Option(SharedOptions.allowEmpty) var allowEmpty: Bool
    @Option(SharedOptions.retryDamaged) var retryDamaged: Bool
    @Option(SharedOptions.verbose.helped("one line per photo and stage")) var verbose: Bool
    @Option(SharedOptions.rating.helped("plan as if the job's select: also had rating: CMP")) var rating: RatingComparison?
    @Option(SharedOptions.keyword.helped("plan as if the job's select: also had this keyword (repeat for more)")) var keywords: [String]
    @Option(SharedOptions.label.helped("plan as if the job's select: also had label: NAME")) var label: String?
    @Option(SharedOptions.json.helped("one JSON object: counts per stage, passed over, states (docs/json.md)")) var json: Bool

    var jobPath: String { given[0] }

    func validate() throws {
        guard given.count == 1 else { throw UsageError(given.isEmpty ? "plan needs a job file" : "plan takes one job file") }
    }

    func run() throws -> ExitCode {
        var job = try JobLoader.load(path: jobPath, set: variables)
        job.catalogue = try CatalogueLocation.folder(given: catalogue, for: job)
        if rating != nil || !keywords.isEmpty || label != nil {
            job.select = SharedOptions.narrowed(job.select ?? Selection(), rating: rating, keywords: keywords, label: label)
        }
        var planner = Planner(job: job, force: force, allowEmpty: allowEmpty, retryDamaged: retryDamaged)
        planner.keepsEntries = verbose
        let plan = try planner.plan()
        for warning in plan.warnings { Console.err(warning) }
        if rating != nil || !keywords.isEmpty || label != nil, FileSystem.exists(job.catalogue + "/" + Catalogue.databaseName) {
            // The flags' labels and keywords, against the catalogue's: a misspelt one plans nothing, and says so.
            let reader = try CatalogueReader(folder: job.catalogue)
            defer { reader.close() }
            let narrowed = Selection(rating: nil, label: label, keywords: keywords.isEmpty ? nil : keywords)
            for warning in FactWarnings.of(narrowed, among: try reader.allPhotos(), label: "--label", keyword: "--keyword") {
                Console.err(warning)
            }
        }
        if json {
            Console.out(PlanCommand.json(plan, verbose: verbose).prettyText)
        } else {
            PlanCommand.print(plan, verbose: verbose)
        }
        return .ok
    }

    static func print(_ plan: Planner.Plan, verbose: Bool) {
        Console.out("plan for job '\(plan.job.name.shown)', catalogue \(plan.job.catalogue.shown)")
        if let select = plan.job.select { Console.out("select: \(select.summary)") }
        Console.out("")
        Console.out("  stage         to do  up to date  left out")
        for stage in StageRegistry.stepNames {
            guard let c = plan.counts[stage] else { continue }
            // Some to do only if a header the plan does not read matches `select:`: the run may do fewer.
            let toDo = c.toDoIfHeaderMatches > 0 ? "up to \(c.toDo)" : String(c.toDo)
            Console.out("  " + stage.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0)
                        + toDo.leftPadded(8) + String(c.upToDate).leftPadded(12) + String(c.leftOut).leftPadded(10))
        }
        if plan.counts.isEmpty { Console.out("  (no photos)") }
        if let unsure = plan.counts.values.map(\.toDoIfHeaderMatches).max(), unsure > 0 {
            Console.out("  up to: \(unsure) of the files still to import are to do only if their header (taken, caption, camera,")
            Console.out("  format, and XMP's rating, label, keywords where no sidecar gives them) matches select; the plan")
            Console.out("  reads no header, the run does")
        }
        let passedOver = [plan.scan.passedOver.derivedSentence, plan.scan.passedOver.ignoredSentence].compactMap { $0 }
        if !passedOver.isEmpty { Console.out("") }
        for line in passedOver { Console.out(line) }
        let states = StatesText.sentences(plan.states)
        if !states.isEmpty { Console.out("") }
        for line in states { Console.out(line) }
        if verbose {
            Console.out("")
            for entry in plan.entries { Console.out("  \(entry.stage.rawValue) \(entry.verdict): \(entry.path.shown)") }
        }
    }
}
