import System
/// How the catalogue stores the paths of originals and renditions, so that it can be moved (docs/catalogue.md,
/// "Moving a catalogue"): a path under the catalogue folder is stored relative to it (`thumbnails/ab/…`), a path
/// under the folder's parent (the library that holds `.album`) as `../…`, and any other path absolute.
///
/// ```
/// folder /photos/.album:  /photos/.album/thumbnails/ab/x.jpg → thumbnails/ab/x.jpg
///                         /photos/2024/a.jpg                 → ../2024/a.jpg
///                         /mnt/nas/b.jpg                     → /mnt/nas/b.jpg
/// ```
///
/// Records carry absolute paths; `Catalogue` stores and resolves them at its edge (`fetchAll`, `insertRow`, and each
/// query that binds a path), so `ls`, `show`, `--json`, the events and templates only ever see absolute paths.
package struct CataloguePaths: Sendable, Equatable {
    package static func == (a: CataloguePaths, b: CataloguePaths) -> Bool { a.folder == b.folder }

    /// The catalogue folder, absolute and normalised (`Paths.absolute`).
    package let folder: String
    /// The folder's parent, or nil when that is `/` (then only paths inside the folder are stored relative).
    package let parent: String?
    /// `folder` and `parent` with a slash after each, made once: every lookup by path stores one and resolves
    /// what it reads.
    private let folderSlash: String
    private let parentSlash: String?

    package init(folder: String) {
        self.folder = folder
        if let slash = folder.lastIndex(of: "/"), slash != folder.startIndex {
            parent = String(folder[..<slash])
        } else {
            parent = nil
        }
        folderSlash = folder + "/"
        parentSlash = parent.map { $0 + "/" }
    }

    /// What the catalogue stores for the absolute `path`.
    /// Paths are compared by their bytes (`hasBytePrefix`): two spellings of a character are two names on disk.
    package func stored(_ path: String) -> String {
        if let inside = path.afterBytePrefix(folderSlash) { return inside }
        if let parentSlash, let beside = path.afterBytePrefix(parentSlash) { return "../" + beside }
        return path
    }

    /// The absolute path a stored one names, from where the folder is now.
    package func resolved(_ stored: String) -> String {
        if stored.utf8.first == UInt8(ascii: "/") { return stored }
        if stored.hasBytePrefix("../") { return stored.joined(after: parentSlash ?? "/", dropping: 3) }
        return stored.joined(after: folderSlash)
    }
}
