import Foundation
import Catalogue

extension SecondOriginal {
    /// A Live Photo's movie's duration as `ls` and `show` print it, to a tenth of a second ("1.5 s"); nil when the
    /// row has none (a RAW or JPEG of a pair, or a movie whose container gives none).
    var shownDuration: String? {
        duration.map { String(format: "%.1f s", $0) }
    }
}
