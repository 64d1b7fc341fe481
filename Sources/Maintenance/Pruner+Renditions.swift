import Core
import Catalogue

extension Pruner {
    /// The stages each job applies now, from `runs.stages`: for each job, its latest run that ended `ok` and every
    /// run started since (a run that failed, was interrupted or never finished may have redone only some photos with
    /// its parameters: the earlier parameters' renditions are still the others' current ones); every run of a job
    /// that never ended ok. A run without `stages` whose counts name no rendering stage (`caption`,
    /// `relocate`) applied none; one whose counts do (or that has none) is unknown.
    public func currentParameters() throws -> CurrentParameters {
        var current = CurrentParameters()
        let rendering = Set([StageName.filter, .thumbnail, .export].map(\.rawValue))
        let runs = Dictionary(grouping: try catalogue.runs().sorted { $0.id < $1.id }, by: \.job)
        for (job, runs) in runs.sorted(by: { $0.key < $1.key }) {
            let since = runs.last { $0.status == "ok" }?.id ?? runs[0].id
            for run in runs where run.id >= since {
                if let text = run.stages, let stages = AppliedStage.parse(text) {
                    for applied in stages {
                        current.hashes[applied.stage, default: []].insert(applied.parametersHash)
                        if let look = applied.look { current.looks[applied.parametersHash] = look }
                        if applied.keepsFullSize { current.keptFullSize.insert(applied.parametersHash) }
                    }
                    continue
                }
                var counted: Set<String> = []
                if run.stages == nil, let counts = run.counts, case .object(let fields)? = JSONValue(parsing: counts) {
                    counted = Set(fields.map(\.0))
                } else {
                    counted = rendering  // no counts, or stages album cannot read: assume the worst
                }
                if !counted.isDisjoint(with: rendering) { current.unknown.append("\(job) (run \(run.id))") }
            }
        }
        return current
    }

    /// The renditions of `photo` (which stays) that no current look or parameter set would produce, with why:
    /// a filtered image of another look than the photo's (`filter_recipe`), or of its look when no current filter
    /// stage keeps full-size images (`keep: none`, the default), a thumbnail or export of an earlier
    /// look (its input hash is not the look's, nor, for an export made from a thumbnail, a kept thumbnail's file;
    /// a thumbnail of the original look stays, as a filtered look's "before"),
    /// or one made with parameters no job's current runs applied. What the runs cannot prove old is kept.
    package static func oldRenditions(of photo: PhotoRecord, _ renditions: [Rendition], current: CurrentParameters) -> [PrunePlan.OldRendition] {
        let look = photo.lookHash
        var old: [PrunePlan.OldRendition] = []
        var keptThumbnails = Set<String>()
        // The kinds these rules know, in this order (a thumbnail kept is known before the exports made from it); a
        // kind a newer stage writes is kept: what the runs cannot prove old is kept.
        for kind in [Rendition.Kind.filtered, .thumbnail, .export] {
            for rendition in renditions where rendition.kind == kind {
                let why: String?
                if kind == .filtered {
                    if photo.filterRecipe == LookHash.originalRecipe {
                        why = "the photo has the original look now"
                    } else if let made = current.looks[rendition.parametersHash] {
                        // The look is current, but a stage that records it alone reads and writes no filtered image:
                        // old once no current run (nor one that does not say its stages) keeps full-size images.
                        why = made != photo.filterRecipe ? "a look the photo no longer has"
                            : current.keptFullSize.contains(rendition.parametersHash) || !current.unknown.isEmpty ? nil
                            : "no stage keeps full-size filtered images now"
                    } else {
                        why = current.applies(.filter, hash: rendition.parametersHash) == false ? "parameters no job applies now" : nil
                    }
                } else {
                    // A filtered photo's thumbnail of its original look is the report's "before" (ThumbnailStage).
                    let before = kind == .thumbnail && rendition.inputHash == photo.hash
                    if rendition.inputHash != look, !before, kind == .thumbnail || !keptThumbnails.contains(rendition.inputHash) {
                        why = "an earlier look"
                    } else {
                        let stage: StageName = kind == .thumbnail ? .thumbnail : .export
                        why = current.applies(stage, hash: rendition.parametersHash) == false ? "parameters no job applies now" : nil
                    }
                }
                if let why {
                    old.append(PrunePlan.OldRendition(rendition: rendition, why: why))
                } else if kind == .thumbnail, rendition.inputHash == look {
                    keptThumbnails.insert(rendition.fileHash)
                }
            }
        }
        return old
    }
}
