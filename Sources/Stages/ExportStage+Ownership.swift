import System
import Catalogue

extension ExportStage {
    /// Whose file is at an export's path, as far as this catalogue can tell.
    package enum Owner: Equatable {
        /// This catalogue's export of this photo: its row records the file, or the file's tag names this catalogue
        /// and this photo (a crash came between the file and its row).
        case thisPhoto
        /// Tagged by another catalogue (or by an album older than catalogue ids, and not recorded here).
        case otherCatalogue
        /// No export tag and no row here (a file album did not write), or this catalogue's export of another photo.
        case notThisPhoto
    }

    /// Who owns the file at `path`. `tag` is what this catalogue would write for this photo; `recorded` says whether
    /// this photo's row records the file.
    ///
    /// Old tags (the photo's hash only, written before catalogues had ids) are trusted when this catalogue records
    /// the file as its own rendition, and otherwise taken for another catalogue's: an older album sharing the
    /// folder wrote them just the same. A tag naming another catalogue wins over a row here: that catalogue
    /// replaced the file (`if-exists: overwrite`), so it is no longer the file this catalogue wrote.
    package static func owner(of path: String, tag: ExportTag, recorded: Bool) -> Owner {
        let found = ExportTag.of(path)
        if let found, let catalogue = found.catalogue, catalogue != tag.catalogue { return .otherCatalogue }
        if recorded { return .thisPhoto }
        guard let found else { return .notThisPhoto }
        guard found.catalogue != nil else { return .otherCatalogue }
        return found.photo == tag.photo ? .thisPhoto : .notThisPhoto
    }

    /// Why `if-exists: skip` leaves the file at `path` alone and fails the photo.
    package static func refusal(_ path: String, owner: Owner) -> String {
        let advice = "set if-exists: rename or overwrite, or change `to:`"
        guard owner == .otherCatalogue, let found = ExportTag.of(path) else {
            return "\(path) already exists and album did not export it for this photo; \(advice)"
        }
        guard let catalogue = found.catalogue else {
            return "\(path) was exported by another album catalogue (an older album's tag, which names none); \(advice)"
        }
        let folder = found.catalogueFolder.map { ", at \($0)" } ?? ""
        return "\(path) was exported by another catalogue (id \(catalogue)\(folder)); album does not replace it: \(advice)"
    }

    /// This catalogue's export at `target` of another photo that no longer claims it: none of that photo's paths
    /// (its own, its aliases') that may still hold its bytes renders this template to `target`. An alias whose file
    /// now holds other bytes (a new photo, its alias row forgotten), a photo moved to another name, or a photo whose
    /// own file now holds another photo's bytes (`cp a.jpg b.jpg`: b.jpg is an alias of a's photo now, and the old b
    /// is superseded) leaves such a file; the photo whose name gives `target` now takes it over as its own, as an
    /// edited original's new version takes its earlier export; so does a photo whose own file is now another photo's
    /// second original (a pair regrouped, docs/catalogue.md "Pairs"). A name whose file is gone still claims its export
    /// (an unmounted share is not a rename).
    func abandonedExport(at target: String, for photo: PhotoRecord, context: StageContext) throws -> Rendition? {
        guard FileSystem.exists(target) else { return nil }
        let stage = self
        return try context.read { catalogue -> Rendition? in
            for rendition in try catalogue.renditions(path: target) where rendition.kind == .export && rendition.photo != photo.id {
                guard let other = try catalogue.photo(id: rendition.photo) else { continue }
                let aliases = try catalogue.aliases(photo: other.id)
                // A photo whose own file is now another photo's second original (a regrouped pair) claims nothing by it.
                let pairedAway = try catalogue.secondOriginals(path: other.path).contains { $0.photo != other.id }
                let names = (pairedAway || ExportStage.holdsOtherBytes(other.path, not: other, alias: nil) ? [] : [other.path])
                    + aliases.filter { !ExportStage.holdsOtherBytes($0.path, not: other, alias: $0) }.map(\.path)
                let claimed = try names.contains { name in
                    var named = other
                    named.path = name
                    return try stage.render(named) == target
                }
                if !claimed { return rendition }
            }
            return nil
        }
    }

    /// Whether the file at `name`, one of `photo`'s paths (`alias`'s when given), now holds other bytes than the
    /// photo's: there, a regular file, its stat not the recorded one, and its size or (only then read) its SHA-256
    /// not the photo's. A file gone, or only touched, is still the photo's.
    static func holdsOtherBytes(_ name: String, not photo: PhotoRecord, alias: PhotoAlias?) -> Bool {
        guard let status = try? FileStatus(name, followingLinks: true), status.isRegular else { return false }
        let identity = FileIdentity(status)
        if alias.map({ identity.isUnchanged(since: $0) }) ?? identity.isUnchanged(since: photo) { return false }
        if status.size != photo.bytes { return true }
        guard let hash = try? FileBytes.sha256(ofFileAt: name) else { return false }
        return hash != photo.hash
    }
}
