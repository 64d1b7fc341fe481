import Core

/// A file album derived from a photo: a filtered full image, a thumbnail, or an export.
public struct Rendition: Sendable, Equatable {
    /// What a rendition is, as the `kind` column stores it: a name the stage that writes it declares
    /// (`PhotoStage.renditionKinds`), so a new stage adds its own kind without a change here or in the schema.
    /// Like a stage's name (`StageName.isName`): lowercase letters, digits and hyphens, starting with a letter.
    public struct Kind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String

        /// nil for text that is not a name.
        public init?(rawValue: String) {
            guard StageName.isName(rawValue) else { return nil }
            self.rawValue = rawValue
        }

        private init(known: String) { rawValue = known }

        /// A filter stage's full-size image of a look (`keep: full-size`).
        public static let filtered = Kind(known: "filtered")
        public static let thumbnail = Kind(known: "thumbnail")
        public static let export = Kind(known: "export")

        public var description: String { rawValue }
    }

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
    /// The file's size; `Rendition.beingWritten` while a run replaces the file (`Catalogue.markBeingWritten`).
    public var bytes: Int
    /// The run that wrote it (or, while `bytes` is `beingWritten`, the run that is replacing it).
    public var run: Int64

    /// The `bytes` of a row whose file a run is replacing: no file has it, so the row is never up to date, and
    /// `verify` names the run that was writing the file if that run stopped before recording the new one.
    public static let beingWritten = -1

    /// Whether a run was replacing this rendition's file and has not recorded the new one.
    public var isBeingWritten: Bool { bytes == Rendition.beingWritten }

    public init(photo: String, kind: Kind, parametersHash: String, inputHash: String, path: String, fileHash: String,
                width: Int, height: Int, bytes: Int, run: Int64) {
        self.photo = photo
        self.kind = kind
        self.parametersHash = parametersHash
        self.inputHash = inputHash
        self.path = path
        self.fileHash = fileHash
        self.width = width
        self.height = height
        self.bytes = bytes
        self.run = run
    }
}
