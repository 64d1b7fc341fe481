import System

/// Another path where a photo's bytes were found: the same content under a second name (docs/catalogue.md,
/// "Aliases"). The photo's own `path` is where its bytes were found first; each alias is one more file that holds
/// them, with its stat, so that a rerun knows it without hashing (`FileIdentity.isUnchanged(since:)`).
///
/// Exports are made once per known path (`PhotoWork.paths`): a template over `{name}` gives each alias its own
/// file. Thumbnails and filtered looks stay one per photo.
public struct PhotoAlias: Sendable, Equatable {
    /// The photo whose bytes the file holds.
    public var photo: String
    /// The file's absolute path (stored like `photos.path`, through `CataloguePaths`).
    public var path: String
    public var bytes: Int
    /// The file's modification time (ns since 1970) and inode when it was last hashed or found unchanged.
    public var mtimeNanoseconds: Int
    public var inode: Int
    /// When import first found the bytes under this path, ISO-8601 UTC.
    public var added: String

    public init(photo: String, path: String, bytes: Int, mtimeNanoseconds: Int, inode: Int, added: String) {
        self.photo = photo
        self.path = path
        self.bytes = bytes
        self.mtimeNanoseconds = mtimeNanoseconds
        self.inode = inode
        self.added = added
    }
}
