import Core
import Catalogue
import YAML

/// The warnings for a selection's XMP label and keywords that no photo has: such a selector selects nothing, and a
/// misspelt one says what it probably meant, from the labels and keywords the catalogue holds.
///
/// ```
/// album: warning: --label 'Rde' is no photo's label; did you mean 'Red'?
/// album: warning: keyword 'beahc' is no photo's keyword; did you mean 'beach'?
/// ```
enum FactWarnings {
    /// One warning per label or keyword of `selection` that none of `photos` has; `label` and `keyword` name the
    /// selectors as the user wrote them (`--label`, `select.label`).
    static func of(_ selection: Selection?, among photos: [PhotoRecord], label labelName: String = "label",
                   keyword keywordName: String = "keyword") -> [String] {
        guard let selection else { return [] }
        var warnings: [String] = []
        if let label = selection.label, !photos.contains(where: { $0.label?.lowercased() == label.lowercased() }) {
            let labels = Array(Set(photos.compactMap(\.label))).sorted()
            warnings.append("album: warning: \(labelName) '\(label.shown)' is no photo's label" + hint(label, labels))
        }
        let all = photos.flatMap(\.keywords)
        for keyword in selection.keywords ?? [] where !Selection.hasKeyword(keyword, among: all) {
            let words = Array(Set(all.flatMap { [$0] + $0.split(separator: "|").map(String.init) })).sorted()
            warnings.append("album: warning: \(keywordName) '\(keyword.shown)' is no photo's keyword" + hint(keyword, words))
        }
        return warnings
    }

    private static func hint(_ word: String, _ candidates: [String]) -> String {
        Suggest.nearest(to: word, in: candidates).map { "; did you mean '\($0.shown)'?" } ?? ""
    }
}
