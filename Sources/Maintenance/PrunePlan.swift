import Core
import Catalogue

/// What `album prune` forgets and keeps, decided before anything is written (`Pruner.plan`), so that
/// `--dry-run` prints exactly what a prune would do.
public struct PrunePlan: Sendable {
    /// A photo prune forgets, with its renditions (their rows go with it; their files after).
    public struct Forgotten: Sendable {
        public var photo: PhotoRecord
        /// `missing`, or `superseded` (by a newer version of its file).
        public var state: PhotoState
        public var renditions: [Rendition]
    }

    /// A rendition of a photo that stays which no current look or parameter set would produce.
    public struct OldRendition: Sendable {
        public var rendition: Rendition
        public var why: String
    }

    public var forgotten: [Forgotten] = []
    /// Missing photos kept because `--keep-missing` asks now or asked before (`missing_kept` set), by id.
    public var keptMissing: [String] = []
    /// Those of `keptMissing` to mark `missing_kept` now.
    public var markKept: [String] = []
    /// Missing photos kept because the catalogue holds their copy (`mode: copy`): `album rm` forgets one.
    public var keptCopies: [String] = []
    /// Photos marked `missing_kept` whose original is back: the mark is cleared.
    public var foundAgain: [String] = []
    /// Missing photos kept because the folder they were under is itself gone or empty, by folder.
    public var unreachable: [UnreachableFolder] = []
    /// Superseded versions kept because the catalogue holds their copy (`mode: copy`), by id.
    public var keptCopiedVersions: [String] = []
    /// Superseded versions kept because another name (an alias) still holds their bytes, by id.
    public var keptHeld: [String] = []
    /// Superseded versions kept by `--keep-versions`.
    public var keptVersions = 0
    public var oldRenditions: [OldRendition] = []
    /// Other names of photos that stay whose file is gone (docs/catalogue.md "Aliases"): their rows are forgotten;
    /// exports made for them are the photo's renditions, judged like any other.
    public var forgottenAliases: [PhotoAlias] = []
    /// Second originals (a pair's other file, docs/catalogue.md "Pairs") of photos that stay whose file is gone: their
    /// rows are forgotten, and the photo stays, with its rendered original.
    public var forgottenSeconds: [SecondOriginal] = []
    /// The jobs whose latest runs do not say which stages they applied (runs before schema version 5): renditions
    /// that only their parameters could prove old are kept. "NAME (run N)" each.
    public var unproven: [String] = []
    /// The step rows `--history` removes.
    public var historyRows = 0
    /// The photos prune forgets, by id (`forgotten`'s).
    public var gone: Set<String> = []
    /// The paths of each photo's old renditions (`oldRenditions`'), by photo id: a file only those rows and the
    /// forgotten photos' record is no longer recorded after the prune (`Pruner.remains`).
    public var oldPaths: [String: Set<String>] = [:]
}
