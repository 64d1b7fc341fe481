import Vips
import Core

extension ThumbnailStage {
    /// A cover thumbnail's crop, read back from the parameters its step recorded (`ThumbnailCrops`); nil for a
    /// thumbnail that shows the whole photo (`contain`, `fill`) or text that is not a thumbnail's parameters.
    public static func framing(recorded parameters: String) -> ThumbnailGeometry? {
        guard let stage = ThumbnailStage(recorded: parameters), stage.fit == .cover else { return nil }
        return stage.geometry
    }

    /// The thumbnail stage whose recorded parameters are `text`: its size and choices set from them, through its
    /// `options` table (the one the job file and the hash are read from); nil when the text is not a JSON object
    /// or a size or choice in it is not one the stage takes.
    /// ```
    /// {"size":"240x240","fit":"cover","crop":"centre","format":"jpeg","quality":70}   →  240×240, crop centre, sizing both
    /// ```
    package init?(recorded text: String) {
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
        self = stage
    }
}
