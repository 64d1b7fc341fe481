import Media
import Stages

extension Scheduler {
    /// Whether any photo of this job could share a decode: at least one `export from: image` with a `max-size` no
    /// larger than `SharedDecode.longEdgeCap`, and at least two outputs of the original in all (thumbnails and such
    /// exports). Answered once per photo from the job alone, before asking any stage.
    var mayShareDecodes: Bool {
        let uses = job.stages.compactMap(\.sharedDecodeUse)
        let bounded = uses.filter { if case .bounded(let size) = $0 { size <= SharedDecode.longEdgeCap } else { false } }
        return !bounded.isEmpty && bounded.count + uses.filter({ $0 == .any }).count >= 2
    }

    /// The decode `work`'s outputs share in this run, or nil when one output or none will render from the original.
    ///
    /// Each stage is asked, in chain order on a copy of `work`, whether it is up to date, by the rule its `run`
    /// skips by (`PhotoStage.plan`, which `PlanRunAgreementTests` hold to `run`; with `--force` nothing is): so the
    /// shared size comes from the outputs that will actually render. An incremental run in which only the thumbnail
    /// is out of date renders it alone, as before, and never pays for the preview's larger decode. A full-size export
    /// (no `max-size`) or one above the cap is never shared; an export with a kept filtered file to copy may still be
    /// counted, and then copies it as before.
    func sharedDecode(for work: PhotoWork, context: StageContext) -> SharedDecode? {
        guard mayShareDecodes else { return nil }
        var probe = work
        var sizes: [Int] = [], thumbnails = 0
        for (stage, prepared) in zip(job.stages, preparedStages) {
            if let select = stage.select, !select.matches(probe.photo) { continue }
            var stageContext = context
            stageContext.prepared = prepared
            guard let upToDate = try? stage.plan(&probe, context: stageContext) else { return nil }
            if upToDate, !context.force { continue }
            switch stage.sharedDecodeUse {
            case .any: thumbnails += 1
            case .bounded(let maxSize):
                guard maxSize <= SharedDecode.longEdgeCap else { continue }
                sizes.append(maxSize)
            case nil: continue
            }
        }
        guard let largest = sizes.max(), sizes.count + thumbnails >= 2 else { return nil }
        return SharedDecode(maxSize: largest)
    }
}
