/// A file album derived from a photo: a filtered full image, a thumbnail, or an export.
public struct Rendition: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable { case filtered, thumbnail, export }

    public var photo: String
    public var kind: Kind
    /// SHA-256 of the stage's canonical parameters together with album's and libvips' versions.
    public var parametersHash: String
    /// The identity of what the stage read: the look's hash, or the thumbnail's file hash.
    public var inputHash: String
    /// Absolute path of the file.
    public var path: String
    /// SHA-256 of the file's bytes.
    public var fileHash: String
    public var width: Int
    public var height: Int
    public var bytes: Int
    /// The run that wrote it.
    public var run: Int64
}
