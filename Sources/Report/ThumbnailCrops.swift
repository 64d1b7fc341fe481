import Vips
import Catalogue
import Stages

/// The geometry of each cropped (`fit: cover`) thumbnail of a photo, read back from the parameters its step
/// recorded, so that a report can show the crop as the run made it and render the original look in the same frame.
///
/// A thumbnail's pixel size alone does not say whether it was cropped or stretched (`fit: fill`), nor which part a
/// crop kept (`centre`, `attention`, `entropy`); its step row does: the stage's canonical parameters, read back by
/// the stage that recorded them (`PhotoStage.framing(recorded:)`, from the table the job file and the hash are
/// read from), and its output hash, which is the thumbnail file's hash.
enum ThumbnailCrops {
    /// The geometry of every cropped rendition a done step of `history` made, by the file's hash.
    package static func of(_ history: [HistoryEntry]) -> [String: ThumbnailGeometry] {
        var crops: [String: ThumbnailGeometry] = [:]
        for step in history where step.status == StepRecord.Status.done.rawValue {
            guard let output = step.outputHash, let stage = StageRegistry.photoStage(named: step.stage),
                  let geometry = stage.framing(recorded: step.parameters) else { continue }
            crops[output] = geometry
        }
        return crops
    }
}
