import System
import Core
import Catalogue

extension ExportStage {
    /// Where this export writes for `work`: its template rendered once for each path of the photo's bytes
    /// (`PhotoWork.paths`: its own, then its aliases'), each distinct result once, in that order. A template over a
    /// path's name (`{name}`, `{source-ext}`) gives each alias its own file; any other template gives one file per
    /// photo. `{ext}` is the format this export writes (`format`), the same for every path.
    ///
    /// ```
    /// photo r001.webp, alias "dup copy.webp", to: out/{name}.jpg   → out/r001.jpg, out/dup copy.jpg
    /// the same photo,                         to: out/{hash8}.jpg  → out/1f2e3d4c.jpg
    /// the same photo, format: png,            to: out/{name}.{ext} → out/r001.png, out/dup copy.png
    /// ```
    func targets(of work: PhotoWork) throws -> [String] {
        var targets: [String] = []
        for path in work.paths {
            var named = work.photo
            named.path = path
            let target = try render(named)
            if !targets.contains(target) { targets.append(target) }
        }
        return targets
    }

    /// `to:` rendered for `photo` as this export writes it: `{ext}` is `format`'s extension; with `from: motion`,
    /// `mp4` for a Motion Photo's movie and `mov` for a Live Photo's; with `from: original`, the original's own.
    package func render(_ photo: PhotoRecord) throws -> String {
        let ext = switch from {
        case .motion: photo.motionLength != nil ? "mp4" : "mov"
        case .original: ExportStage.originalExtension(of: photo)
        case .image, .thumbnail: format.fileExtension
        }
        return try to.render(photo, formatExtension: ext)
    }
}

extension ExportStage {
    /// Refuses `target` when a symbolic link on the way from `to:`'s root to its folder leads out of the root
    /// (`RealPath.linkLeaving`): every exported file stays under its root, as the template promises, whatever links
    /// the folders hold. The root itself may be a link; a link inside it that stays inside is followed.
    ///
    /// ```
    /// out/a -> ../elsewhere, to: out/{name}/{id}.jpg, a photo named a →
    /// "out/a is a symbolic link to /lib/elsewhere, outside the export folder out; …"
    /// ```
    func requireUnderRoot(_ target: String) throws {
        let folder = Directory.parent(of: target)
        let escape: RealPath.Escape?
        do {
            escape = try RealPath.linkLeaving(root: to.root, toward: folder)
        } catch {
            throw StageError("cannot check that \(folder) stays under the export folder \(to.root): \(error)")
        }
        guard let escape else { return }
        let real = escape.root == to.root ? "" : " (\(escape.root))"
        throw StageError("\(escape.link) is a symbolic link to \(escape.leadsTo), outside the export folder \(to.root)\(real); "
            + "album writes exports only under their folder: make \(escape.link) a folder, or change `to:`")
    }
}
