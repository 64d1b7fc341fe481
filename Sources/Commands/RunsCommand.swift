import Core
import Catalogue
import Stages

/// `album runs`: the catalogue's past runs, newest first, with their status, step counts and software.
struct RunsCommand: Command {
    /// Only reads: a reader of its stdout that goes away ends it quietly (`Command.onlyReads`).
    static let onlyReads = true
    static let configuration = CommandConfiguration(
        name: "runs",
        abstract: "List past runs, newest first, with their status and counts.",
        discussion: """
            Each run of a job (album run) or of a command that changes photos (album caption): its id, job, status
            (running, ok, failed, interrupted), when it started and finished, its steps done, skipped and failed,
            and the album and libvips versions that ran it. A run killed before it finished shows as 'running' until
            the next command that writes to the catalogue marks it 'interrupted'. A skipped step is no row: a run
            counts them and records the counts when it ends (a SIGINT too). For a run that never ended, done and
            failed are counted from its rows and skipped shows '?' (null in --json): it was never counted.
            """)

    @Option(SharedOptions.catalogue) var catalogue: String
    @Option(SharedOptions.json.helped("a JSON array, one object per run, with counts per stage and status")) var json: Bool

    func run() throws -> ExitCode {
        let catalogue = try CatalogueReader(folder: self.catalogue)
        defer { catalogue.close() }
        let runs = try catalogue.runs()
        let counts = try runs.map { run in
            try run.counts.flatMap(JSONValue.init(parsing:)) ?? catalogue.countedSteps(run: run.id, stages: StageRegistry.names)
        }
        if json {
            Console.out(JSONValue.array(zip(runs, counts).map(RunsCommand.json)).prettyText)
            return .ok
        }
        var table = TextTable(["run", "job", "status", "started", "finished", "done", "skipped", "failed", "states", "album", "libvips"],
                              rightAligned: [0, 5, 6, 7])
        for (run, counts) in zip(runs, counts) {
            let totals = RunsCommand.totals(counts)
            let job = run.parent.map { "\(run.job) (chunk \(run.chunk ?? 0) of run \($0))" } ?? run.job
            table.append([String(run.id), job, run.status, Timestamp.local(run.started),
                          run.finished.map { Timestamp.local($0) } ?? "-", String(totals[0]),
                          run.counts == nil ? "?" : String(totals[1]), String(totals[2]), StatesText.brief(run.states),
                          run.albumVersion, run.vipsVersion])
        }
        Console.out(table.rendered)
        Console.err("\(runs.count) run\(runs.count == 1 ? "" : "s")")
        let uncounted = runs.filter { $0.counts == nil }.map { String($0.id) }
        if !uncounted.isEmpty {
            Console.err("skipped ?: run\(uncounted.count == 1 ? "" : "s") \(uncounted.joined(separator: ", ")) recorded no counts "
                        + "(killed before the end, or still running): a skipped step is no row, and a run counts them only as it ends; "
                        + "done and failed are counted from the rows")
        }
        return .ok
    }

    /// Steps done, skipped and failed over every stage of a counts object (a `null`, not counted, adds nothing).
    static func totals(_ counts: JSONValue) -> [Int] {
        guard case .object(let stages) = counts else { return [0, 0, 0] }
        return StepRecord.Status.allCases.map { status in
            stages.reduce(0) { sum, stage in
                guard case .object(let byStatus) = stage.1, case .int(let n)? = byStatus.first(where: { $0.0 == status.rawValue })?.1 else { return sum }
                return sum + n
            }
        }
    }

    static func json(_ run: RunRecord, counts: JSONValue) -> JSONValue {
        .object([
            ("id", .int(Int(run.id))), ("job", .string(run.job)), ("job_path", .string(run.jobPath)),
            ("job_hash", .string(run.jobHash)), ("status", .string(run.status)), ("started", .string(Timestamp.utc(run.started))),
            ("finished", .string(run.finished.map(Timestamp.utc))), ("counts", counts), ("album_version", .string(run.albumVersion)),
            ("vips_version", .string(run.vipsVersion)), ("sqlite_version", .string(run.sqliteVersion)),
            ("host", .string(run.host)),
            ("parent", run.parent.map { .int(Int($0)) } ?? .null), ("chunk", .int(run.chunk)),
        ])
    }
}
