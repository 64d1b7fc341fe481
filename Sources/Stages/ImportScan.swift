/// What import's scan found: the entries to import, and what it passed over and why.
public struct ImportScan: Sendable, Equatable {
    /// The entries to import, sorted by path.
    public var files: [String] = []
    /// Folders that could not be listed: each is a failed import step, so a run never passes over them silently.
    public var unreadableFolders: [UnreadableFolder] = []
    /// The files it never took: album's own, and those no include pattern matches.
    public var passedOver = PassedOver()
    /// How many entries to import each root of `from` gave, before `limit` (the "is it mounted?" check).
    public var foundPerRoot: [String: Int] = [:]
    /// The second original of each pair among `files` (a file to import → the pair's other file, which `files`
    /// leaves out; `ImportStage.paired`): import records it with the photo (docs/catalogue.md, "Pairs").
    public var seconds: [String: String] = [:]
    /// Each entry's XMP sidecar, absolute (`IMG_1.CR2.xmp` or `IMG_1.xmp`), found in the listing the scan made.
    public var sidecars: [String: String] = [:]

    public init(files: [String] = [], unreadableFolders: [UnreadableFolder] = [], passedOver: PassedOver = PassedOver(),
                foundPerRoot: [String: Int] = [:], seconds: [String: String] = [:], sidecars: [String: String] = [:]) {
        self.seconds = seconds
        self.files = files
        self.sidecars = sidecars
        self.unreadableFolders = unreadableFolders
        self.passedOver = passedOver
        self.foundPerRoot = foundPerRoot
    }
}
