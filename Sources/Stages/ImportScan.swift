import Catalogue

/// What import's scan found: the entries to import, and what it passed over and why.
public struct ImportScan: Sendable, Equatable {
    /// The entries to import, sorted by path, kept compactly (`ScannedPaths`: each read makes its `String`). Setting
    /// them forgets `identities` (import then stats each file).
    public var files = ScannedPaths() {
        didSet { identities = [] }
    }
    /// Each of `files`' identity from the scan's own stat, in the same order: what `ImportStage.entry(atPath:)`
    /// would find for a regular file (through its link, when links are followed), so import does not stat it a
    /// second time. nil where import makes its own stat and says what the entry is (a link not followed, a dangling
    /// one, anything but a regular file, a root named in `from`); empty when the scan was not made here (a chunk's
    /// manifest) or `files` was changed since.
    public private(set) var identities = ScannedIdentities()
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

    public init(files: ScannedPaths = [], unreadableFolders: [UnreadableFolder] = [], passedOver: PassedOver = PassedOver(),
                foundPerRoot: [String: Int] = [:], seconds: [String: String] = [:], sidecars: [String: String] = [:],
                identities: ScannedIdentities = []) {
        self.seconds = seconds
        self.files = files
        self.identities = identities.count == files.count ? identities : []
        self.sidecars = sidecars
        self.unreadableFolders = unreadableFolders
        self.passedOver = passedOver
        self.foundPerRoot = foundPerRoot
    }

    /// The scan's identity of `files[index]`, nil when import must stat it itself.
    public func identity(at index: Int) -> FileIdentity? {
        index < identities.count ? identities[index] : nil
    }
}
