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
    /// Each entry's XMP sidecar, absolute (`IMG_1.CR2.xmp` or `IMG_1.xmp`), found in the listing the scan made.
    public var sidecars: [String: String] = [:]

    public init(files: [String] = [], unreadableFolders: [UnreadableFolder] = [], passedOver: PassedOver = PassedOver(),
                foundPerRoot: [String: Int] = [:], sidecars: [String: String] = [:]) {
        self.files = files
        self.sidecars = sidecars
        self.unreadableFolders = unreadableFolders
        self.passedOver = passedOver
        self.foundPerRoot = foundPerRoot
    }
}
