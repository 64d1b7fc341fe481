import System

extension ExportStage {
    /// Whose file is at an export's path, as far as this catalogue can tell.
    enum Owner: Equatable {
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
    static func owner(of path: String, tag: ExportTag, recorded: Bool) -> Owner {
        let found = ExportTag.of(path)
        if let found, let catalogue = found.catalogue, catalogue != tag.catalogue { return .otherCatalogue }
        if recorded { return .thisPhoto }
        guard let found else { return .notThisPhoto }
        guard found.catalogue != nil else { return .otherCatalogue }
        return found.photo == tag.photo ? .thisPhoto : .notThisPhoto
    }

    /// Why `if-exists: skip` leaves the file at `path` alone and fails the photo.
    static func refusal(_ path: String, owner: Owner) -> String {
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
    /// (its own, its aliases') renders this template to `target`. An alias whose file now holds other bytes (a new
    /// photo, its alias row forgotten), or a photo moved to another name, leaves such a file; the photo whose name
    /// gives `target` now takes it over as its own, as an edited original's new version takes its earlier export.
    func abandonedExport(at target: String, for photo: PhotoRecord, context: StageContext) throws -> Rendition? {
        guard FileSystem.exists(target) else { return nil }
        let stage = self
        return try context.read { catalogue -> Rendition? in
            for rendition in try catalogue.renditions(path: target) where rendition.kind == .export && rendition.photo != photo.id {
                guard let other = try catalogue.photo(id: rendition.photo) else { continue }
                let names = [other.path] + (try catalogue.aliases(photo: other.id)).map(\.path)
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
}
