import Vips
import Core
import Catalogue
import Stages

/// The geometry of each cropped (`fit: cover`) thumbnail of a photo, read back from the parameters its step
/// recorded, so that a report can show the crop as the run made it and render the original look in the same frame.
///
/// A thumbnail's pixel size alone does not say whether it was cropped or stretched (`fit: fill`), nor which part a
/// crop kept (`centre`, `attention`, `entropy`); its step row does: the stage's canonical parameters, read here
/// through `ThumbnailStage.options` (the table the job file and the hash are read from), and its output hash, which
/// is the thumbnail file's hash.
/// ```
/// {"size":"240x240","fit":"cover","crop":"centre","format":"jpeg","quality":70}   →  240×240, crop centre, sizing both
/// ```
package enum ThumbnailCrops {
    /// The geometry of every cover thumbnail a done step of `history` made, by the thumbnail file's hash.
    package static func of(_ history: [HistoryEntry]) -> [String: ThumbnailGeometry] {
        var crops: [String: ThumbnailGeometry] = [:]
        for step in history where step.stage == StageName.thumbnail.rawValue && step.status == StepRecord.Status.done.rawValue {
            guard let output = step.outputHash, let stage = stage(recorded: step.parameters), stage.fit == .cover else { continue }
            crops[output] = stage.geometry
        }
        return crops
    }

    /// The thumbnail stage whose recorded parameters are `text`: its size and choices set from them; nil when the
    /// text is not a JSON object or a size or choice in it is not one the stage takes.
    package static func stage(recorded text: String) -> ThumbnailStage? {
        guard case .object(let members)? = JSONValue(parsing: text) else { return nil }
        var stage = ThumbnailStage()
        for (key, value) in members {
            guard let option = ThumbnailStage.options.first(where: { $0.key == key }), case .string(let raw) = value else { continue }
            switch option.kind {
            case .size(let width, let height):
                let parts = raw.split(separator: "x", omittingEmptySubsequences: false)
                guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), w > 0, h > 0 else { return nil }
                stage[keyPath: width] = w
                stage[keyPath: height] = h
            case .choice(let choice):
                guard choice.allowed.contains(raw) else { return nil }
                choice.assign(raw, to: &stage)
            default: continue
            }
        }
        return stage
    }
}
