import System

/// A photo's second original: another file of the same photo that album reads, hashes and stats but does not
/// render, such as the RAW of a RAW+JPEG pair a camera wrote (docs/catalogue.md, "Pairs"). The photo's own `path`,
/// `hash` and stat are the rendered original's, chosen by import's `pair:` option; each second original has a row of
/// `second_originals` with its own path, SHA-256, size, modification time and inode, so that verify, prune,
/// relocate, rm and import's fast path treat it as they treat the photo's own file.
///
/// A path is one thing at a time: a photo's own original, or one photo's second original, never both (import
/// forgets the rows that claimed it before, `Catalogue.forgetSecondOriginals(path:keeping:)`).
public struct SecondOriginal: Sendable, Equatable {
    /// The photo it belongs to.
    public var photo: String
    /// The file's absolute path (stored like `photos.path`, through `CataloguePaths`).
    public var path: String
    /// What the file is: its format's name (`dng`, `cr2`, `jpeg`, `heif`: a RAW's is its extension, lowercased).
    public var format: String
    /// The SHA-256 of its bytes when it was last read.
    public var hash: String
    public var bytes: Int
    /// The file's modification time (ns since 1970) and inode when it was last hashed or found unchanged.
    public var mtimeNanoseconds: Int
    public var inode: Int
    /// When import first recorded it for this photo, ISO-8601 UTC.
    public var added: String
    /// A Live Photo's movie's duration in seconds, as FFmpeg read its header when import last read the file; nil for
    /// a RAW or JPEG of a pair, and for a movie whose container gives none (docs/catalogue.md, "Live Photos").
    public var duration: Double?

    public init(photo: String, path: String, format: String, hash: String, bytes: Int, mtimeNanoseconds: Int,
                inode: Int, added: String, duration: Double? = nil) {
        self.photo = photo
        self.path = path
        self.format = format
        self.hash = hash
        self.bytes = bytes
        self.mtimeNanoseconds = mtimeNanoseconds
        self.inode = inode
        self.added = added
        self.duration = duration
    }

    /// Whether its file is there with another stat than recorded and other bytes (its size, or only then its
    /// SHA-256): an edit no run has recorded yet. A file only touched, gone or unreadable is not changed.
    public var isChanged: Bool {
        guard let status = try? FileStatus(path, followingLinks: true), status.isRegular,
              !FileIdentity(status).isUnchanged(since: self) else { return false }
        return status.size != bytes || (try? FileBytes.sha256(ofFileAt: path)).map { $0 != hash } ?? false
    }

    /// The same record with `identity`'s stat (found again, touched or read).
    public func with(_ identity: FileIdentity, hash: String? = nil) -> SecondOriginal {
        var changed = self
        changed.bytes = identity.bytes
        changed.mtimeNanoseconds = identity.mtimeNanoseconds
        changed.inode = identity.inode
        if let hash { changed.hash = hash }
        return changed
    }
}
