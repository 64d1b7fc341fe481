import System
import Vips

extension LookRenderer {
    /// Whether every pixel of `original` decodes, with the same damage rules as a rendering (`guarded`: the
    /// decoder's damage warnings fail it under `fail_on`); attributed, so the answer is this photo's alone. A run
    /// asks before it clears a photo's recorded damage (`--retry-damaged`): stages that found their work up to date,
    /// or only recorded a look, decoded nothing, so their success says nothing of the pixels.
    public static func decodes(_ original: FileBytes, failOn: FailOn) -> Bool {
        (try? guarded(failOn: failOn, original: original) { try Image.decodeEveryPixel(of: original, failOn: failOn) }) != nil
    }
}
