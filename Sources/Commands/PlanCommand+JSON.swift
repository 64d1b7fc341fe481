import Core
import Run
import Plan
import Stages

/// `album plan --json` and `album run --dry-run --log-format json`: the plan as one object, the fields of
/// `PlanCommand.print`'s table and lines (docs/json.md, "plan").
extension PlanCommand {
    /// `{"job", "catalogue", "select", "stages": [{"stage", "to_do", "to_do_if_header_matches", "up_to_date", "left_out"}], "passed_over",
    /// "states", "entries"}`; `entries` (one per photo and stage) is filled only with `--verbose`.
    static func json(_ plan: Planner.Plan, verbose: Bool) -> JSONValue {
        let stages = StageRegistry.stepNames.compactMap { stage in
            plan.counts[stage].map { counts in
                JSONValue.object([("stage", .string(stage.rawValue)), ("to_do", .int(counts.toDo)),
                                  ("to_do_if_header_matches", .int(counts.toDoIfHeaderMatches)),
                                  ("up_to_date", .int(counts.upToDate)), ("left_out", .int(counts.leftOut))])
            }
        }
        let entries = verbose ? plan.entries.map { entry in
            JSONValue.object([("path", .string(entry.path)), ("stage", .string(entry.stage.rawValue)), ("verdict", .string(entry.verdict))])
        } : []
        return .object([
            ("job", .string(plan.job.name)), ("catalogue", .string(plan.job.catalogue)),
            ("select", .string(plan.job.select?.summary)),
            ("stages", .array(stages)),
            ("passed_over", plan.scan.passedOver.json),
            ("states", .object(RunSummary.countedStates.map { ($0.rawValue, .int(plan.states[$0] ?? 0)) })),
            ("entries", .array(entries)),
        ])
    }
}
