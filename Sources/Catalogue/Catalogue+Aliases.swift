import SQLite
import System

extension CatalogueReader {
    /// Every alias of `photo`, oldest first.
    public func aliases(photo: String) throws -> [PhotoAlias] {
        try fetchAll(PhotoAlias.self, "WHERE photo = ? ORDER BY added, rowid", [.text(photo)])
    }

    /// Every alias in the catalogue, oldest first (what a run's snapshot indexes).
    public func allAliases() throws -> [PhotoAlias] {
        try fetchAll(PhotoAlias.self, "ORDER BY added, rowid")
    }

    /// The aliases recorded at `path` (a path holds one content, so at most one in practice).
    public func aliases(path: String) throws -> [PhotoAlias] {
        try fetchAll(PhotoAlias.self, "WHERE path = ?", [.text(paths.stored(path))])
    }
}

extension Catalogue {
    /// Records a new alias.
    public func insert(_ alias: PhotoAlias) throws {
        try insertRow(alias)
    }

    /// Records an alias's new stat, after its file was found again with the same bytes (touched, or copied over).
    public func updateStat(of alias: PhotoAlias) throws {
        try database.run("UPDATE aliases SET bytes = ?, mtime_ns = ?, inode = ? WHERE photo = ? AND path = ?",
                         [.int(alias.bytes), .int(alias.mtimeNanoseconds), .int(alias.inode), .text(alias.photo),
                          .text(paths.stored(alias.path))])
    }

    /// Forgets the aliases at `path` of every photo but `keeping`: the file there now holds other bytes, or has
    /// become the photo's own path.
    public func forgetAliases(path: String, keeping photo: String? = nil) throws {
        try database.run("DELETE FROM aliases WHERE path = ? AND photo IS NOT ?", [.text(paths.stored(path)), .text(photo)])
    }

    /// Makes `alias` its photo's path, when the photo's own file is gone (an alias unchanged since it was hashed
    /// holds the photo's bytes): the photo's path and stat become the alias's, and the alias row goes. When the
    /// photo's file is there (another alias took its place first), nothing changes.
    /// - Returns: the photo as it now is; nil when there is no such photo.
    public func promote(_ alias: PhotoAlias) throws -> PhotoRecord? {
        guard var photo = try photo(id: alias.photo) else { return nil }
        guard !FileSystem.exists(photo.path) else { return photo }
        try forgetAliases(path: alias.path)
        try updateLocation(photo: photo.id, path: alias.path, mtimeNanoseconds: alias.mtimeNanoseconds, inode: alias.inode)
        photo.path = alias.path
        photo.mtimeNanoseconds = alias.mtimeNanoseconds
        photo.inode = alias.inode
        return photo
    }
}

extension CatalogueReader {
    /// The aliases whose file is gone from its path: their exports are no longer refreshed, and `album prune`
    /// forgets them (`forgetAliases(_:)`). A file that cannot be stat-ed for another reason (a permission) is not gone.
    public func missingAliases() throws -> [PhotoAlias] {
        try allAliases().filter(\.isMissing)
    }
}

extension Catalogue {
    /// Forgets `aliases` (their rows only: exports made for them stay, recorded as their photo's renditions). It
    /// opens no transaction of its own, so a caller may make it part of one (`album prune`'s); outside one, each
    /// row goes on its own.
    public func forgetAliases(_ aliases: [PhotoAlias]) throws {
        for alias in aliases {
            try database.run("DELETE FROM aliases WHERE photo = ? AND path = ?", [.text(alias.photo), .text(paths.stored(alias.path))])
        }
    }
}
