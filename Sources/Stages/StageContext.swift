import System
import Vips
import Core
import Catalogue

/// What a stage may use besides its photo: the catalogue (through its one serial owner), the run and the software.
public struct StageContext: Sendable {
    /// The catalogue's folder, absolute.
    public var catalogueFolder: String
    /// The run the steps belong to.
    public var run: Int64
    public var software: Software
    /// Runs `body` on the catalogue's serial owner and waits for it. Stages read, and make the few writes that must
    /// be atomic with a read (import's duplicate check), through this; step rows are the scheduler's.
    public var catalogue: @Sendable (_ body: @Sendable (Catalogue) throws -> Void) throws -> Void
    /// Runs `body` on a reader of the catalogue: the planner's `CatalogueReader`, which has no write method. Nil
    /// during a run: `read` then goes through `catalogue`, the run's writer on its serial owner, which reads too.
    public var reading: (@Sendable (_ body: @Sendable (CatalogueReader) throws -> Void) throws -> Void)? = nil
    /// Like `catalogue`, but the write is committed before this returns.
    public var catalogueCommitted: @Sendable (_ body: @Sendable (Catalogue) throws -> Void) throws -> Void = { _ in }
    /// Runs `body` with `pixels` decoded pixels reserved from the run's memory budget: every rendering that holds a
    /// whole image in memory goes through it.
    public var withPixels: @Sendable (_ pixels: Int, _ body: () throws -> Void) throws -> Void = { _, body in try body() }
    /// How much damage decoding tolerates: the import's `on-damaged` (`fail`: libvips' warnings are errors).
    public var failOn: FailOn = .warning
    /// Redo steps even when they are up to date (`--force`).
    public var force: Bool = false
    /// Where a rendition's file waits to be made durable, together with the others of its batch, before the
    /// transaction that records it commits (`PendingSyncs`; the scheduler's catalogue owner flushes it). Nil: each
    /// file is synced as it is written, for code that records it through no owner.
    public var pendingSyncs: PendingSyncs? = nil
    /// The catalogue's folder held open by the run (`OpenFolder`), so that the stat of a rendition in it walks only
    /// its path inside the catalogue (`RenditionFile.isIntact(_:in:)`); nil: by the whole path.
    public var catalogueFiles: OpenFolder? = nil
    /// The catalogue's id (`Catalogue.identity()`), read once by the scheduler; nil: `identity()` asks the catalogue.
    public var catalogueID: String? = nil

    /// The catalogue's id, which export tags carry.
    public func identity() throws -> String {
        if let catalogueID { return catalogueID }
        return try read { try $0.identity() }
    }

    /// The newest photo recorded for `path` (import's fast path). The scheduler answers from the snapshot it took
    /// when the run began; elsewhere the catalogue is asked.
    public var knownPhoto: (@Sendable (_ path: String) throws -> PhotoRecord?)? = nil
    /// Every recorded rendition of a photo, oldest first; answered like `knownPhoto`.
    public var recordedRenditions: (@Sendable (_ photo: String) throws -> [Rendition])? = nil
    /// The alias recorded at `path` and its (current) photo (import's fast path for another name); answered like
    /// `knownPhoto`.
    public var knownAlias: (@Sendable (_ path: String) throws -> (alias: PhotoAlias, photo: PhotoRecord)?)? = nil

    /// The second original import's scan paired with the file at `path` (`ImportScan.seconds`); nil: none.
    public var secondOriginalPath: (@Sendable (_ path: String) -> String?)? = nil
    /// The second originals recorded for a photo (import's fast path for a pair); answered like `knownPhoto`.
    public var knownSecondOriginals: (@Sendable (_ photo: String) throws -> [SecondOriginal])? = nil

    /// The second originals recorded for `photo`.
    public func secondOriginals(of photo: String) throws -> [SecondOriginal] {
        if let knownSecondOriginals { return try knownSecondOriginals(photo) }
        return try read { try $0.secondOriginals(photo: photo) }
    }

    /// The alias recorded at `path`, with its photo.
    public func alias(atPath path: String) throws -> (alias: PhotoAlias, photo: PhotoRecord)? {
        if let knownAlias { return try knownAlias(path) }
        return try read { catalogue -> (alias: PhotoAlias, photo: PhotoRecord)? in
            guard let alias = try catalogue.aliases(path: path).first, let photo = try catalogue.photo(id: alias.photo) else { return nil }
            return (alias, photo)
        }
    }

    /// The newest photo recorded for `path`.
    public func photo(atPath path: String) throws -> PhotoRecord? {
        if let knownPhoto { return try knownPhoto(path) }
        return try read { try $0.latestPhoto(path: path) }
    }

    /// Every recorded rendition of `photo`, oldest first.
    public func renditions(of photo: String) throws -> [Rendition] {
        if let recordedRenditions { return try recordedRenditions(photo) }
        return try read { try $0.renditions(photo: photo) }
    }

    /// Reads a value from the catalogue on its serial owner.
    public func read<T: Sendable>(_ body: @Sendable @escaping (CatalogueReader) throws -> T) throws -> T {
        let box = ResultBox<T>()
        if let reading {
            try reading { box.value = try body($0) }
        } else {
            try catalogue { box.value = try body($0) }
        }
        return box.value!
    }

    /// Reads and writes the catalogue on its serial owner in one call (import's duplicate check and its record),
    /// and returns what `body` returns.
    public func write<T: Sendable>(_ body: @Sendable @escaping (Catalogue) throws -> T) throws -> T {
        let box = ResultBox<T>()
        try catalogue { box.value = try body($0) }
        return box.value!
    }

    /// The running stage's parameters, serialised and hashed once per run by the scheduler (set for each stage it
    /// runs); `parametersHash` answers from it rather than serialising the same parameters again for every photo.
    public var prepared: StageParameters? = nil

    /// The hash that identifies a stage's parameters together with the software that applies them. `parameters`
    /// is made only when the run prepared none for this stage (an up-to-date check per photo makes none).
    public func parametersHash(stage: StageName, parameters: @autoclosure () -> JSONValue) -> String {
        if let prepared, prepared.stage == stage { return prepared.hash }
        return StageParameters(stage: stage, parameters: parameters(), software: software).hash
    }

    public init(catalogueFolder: String, run: Int64, software: Software,
                catalogue: @escaping @Sendable (_ body: @Sendable (Catalogue) throws -> Void) throws -> Void,
                reading: (@Sendable (_ body: @Sendable (CatalogueReader) throws -> Void) throws -> Void)? = nil,
                catalogueCommitted: @escaping @Sendable (_ body: @Sendable (Catalogue) throws -> Void) throws -> Void = { _ in },
                withPixels: @escaping @Sendable (_ pixels: Int, _ body: () throws -> Void) throws -> Void = { _, body in try body() },
                failOn: FailOn = .warning, force: Bool = false) {
        self.catalogueFolder = catalogueFolder
        self.run = run
        self.software = software
        self.catalogue = catalogue
        self.reading = reading
        self.catalogueCommitted = catalogueCommitted
        self.withPixels = withPixels
        self.failOn = failOn
        self.force = force
    }
}

/// A stage's parameters as a step row records them (canonical JSON) and as renditions are keyed by them (their
/// hash, with the album and libvips versions that apply them).
public struct StageParameters: Sendable, Equatable {
    public let stage: StageName
    public let text: String
    public let hash: String

    public init(stage: StageName, parameters: JSONValue, software: Software) {
        self.stage = stage
        text = parameters.text
        hash = SHA256.ofOwnText("\(stage.rawValue)\n\(text)\nalbum \(software.album)\nlibvips \(software.vips)")
    }
}

/// Carries a value out of a closure run synchronously on another queue.
/// @unchecked: written once inside the synchronous call, read after it returns; never shared concurrently.
final class ResultBox<T>: @unchecked Sendable {
    package var value: T?
}
