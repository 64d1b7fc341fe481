import SQLite
import Core

extension Catalogue {
    /// Sets `photo`'s caption (nil removes it) and records it in the history like any other step: a run of job
    /// "caption" (no job file) holding one `caption` step, all in one transaction.
    /// - Returns: the run's id, and whether the caption changed (an unchanged one is recorded as skipped).
    public func setCaption(_ caption: String?, of photo: PhotoRecord, software: Software) throws -> (run: Int64, changed: Bool) {
        try transaction {
            let run = try beginRun(job: "caption", jobPath: nil, jobHash: nil, started: Timestamp.now(), software: software)
            let changed = photo.caption != caption
            if changed {
                try database.run("UPDATE photos SET caption = ? WHERE id = ?", [.text(caption), .text(photo.id)])
            }
            let parameters = JSONValue.object([("caption", .string(caption))]).text
            try record(StepRecord(run: run, photo: photo.id, path: photo.path, stage: .caption, parameters: parameters,
                                  inputHash: photo.hash, outputHash: nil, milliseconds: 0, status: changed ? .done : .skipped,
                                  error: changed ? nil : "already the caption"))
            let counts = JSONValue.object([("caption", .object([("done", .int(changed ? 1 : 0)), ("skipped", .int(changed ? 0 : 1)),
                                                                ("failed", .int(0))]))])
            try finishRun(run, finished: Timestamp.now(), status: "ok", counts: counts.text)
            return (run, changed)
        }
    }
}
