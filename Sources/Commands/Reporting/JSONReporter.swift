import Core
import Run
import Catalogue
import Stages

/// JSON Lines on stdout, one event per line: the schema is in docs/events.md.
struct JSONReporter: RunObserver {
    func runStarted(run: Int64, job: String, photos: Int) {
        emit([("event", .string("run-started")), ("run", .int(Int(run))), ("job", .string(job)), ("photos", .int(photos))])
    }

    func step(_ step: StepRecord) {
        emit([("event", .string("step")), ("run", .int(Int(step.run))), ("photo", .string(step.photo)),
              ("path", .string(step.path)), ("stage", .string(step.stage.rawValue)), ("status", .string(step.status.rawValue)),
              ("ms", .double((step.milliseconds * 10).rounded() / 10)), ("error", .string(step.status == .failed ? step.error : nil)),
              ("reason", .string(step.status == .skipped ? step.error : nil))]
             + (step.state.map { [("state", JSONValue.string($0.rawValue))] } ?? []))
    }

    func progress(_ progress: RunProgress) {
        emit([("event", .string("progress")), ("done", .int(progress.done)), ("total", .int(progress.total)),
              ("failed", .int(progress.failed)), ("photos_per_second", .double((progress.photosPerSecond * 100).rounded() / 100)),
              ("eta_seconds", progress.etaSeconds.map { .double($0.rounded()) } ?? .null),
              ("seconds", .double((progress.seconds * 10).rounded() / 10))])
    }

    func stopping(_ reason: StopReason) {
        emit([("event", .string("stopping")), ("reason", .string(reason.explanation))])
    }

    func runFinished(_ summary: RunSummary) {
        let busy = StageRegistry.names.map { ($0.rawValue, JSONValue.double(((summary.stageSeconds[$0] ?? 0) * 1000).rounded() / 1000)) }
        emit([("event", .string("run-finished")), ("run", .int(Int(summary.run))), ("job_run", summary.jobRun.map { .int($0) } ?? .null),
              ("status", .string(summary.status)),
              ("stages", summary.countsJSON), ("busy_seconds", .object(busy)), ("workers", .int(summary.workers)),
              ("failed_photos", .int(summary.failures.count)),
              ("passed_over", summary.passedOver.json), ("states", summary.statesJSON),
              ("decodes_shared", summary.sharedDecodes.json),
              ("seconds", .double((summary.seconds * 1000).rounded() / 1000)), ("exit", .int(Int(summary.exitCode.rawValue)))])
    }

    private func emit(_ members: [(String, JSONValue)]) {
        Console.out(JSONValue.object(members).text)
    }
}
