import Vips
import System
import Catalogue

/// The stage that makes photos: import. It runs first, on files rather than on photos, so it is not a
/// `PhotoStage`; the scheduler, the planner and `album watch` reach it through this protocol (`Job.importStage`).
public protocol PhotoSource: JobStage {
    /// A source with every default, taking files from `roots` (`album import PATH…`).
    init(from roots: [String])
    /// Folders (or single files) to take from, absolute.
    var from: [String] { get }
    /// Whether it descends into subfolders.
    var recursive: Bool { get }
    /// Whether libvips may use the loaders it marks untrusted.
    var allowUntrustedLoaders: Bool { get }
    /// The libvips `fail_on` level every decode of the run uses.
    var failOn: FailOn { get }
    /// Whether a file name is one it takes.
    func accepts(name: String) -> Bool
    /// The entries to take, derived files left out; with `parallel`, a root's subfolders walked at once.
    func scan(skipping derived: DerivedFiles, parallel: ParallelIndices?) -> ImportScan
    /// What it does with an entry before reading it.
    func entry(atPath path: String) -> ImportEntry
    /// What became of a known photo's XMP sidecar since its facts were read ("sidecar changed", "sidecar added",
    /// "sidecar removed"), by stat; nil when nothing did.
    func sidecarChange(of known: PhotoRecord, sidecar: String?) -> String?
    /// `photo` with the rating, label and keywords its sidecar gives (the run's own, since a sidecar's win), for a
    /// plan of a file still to import; unchanged when there is no sidecar or it cannot be read.
    func sidecarFacts(_ sidecar: String?, onto photo: PhotoRecord) -> PhotoRecord
    /// The known photo with its facts read again from its header and the sidecar now (reads, writes nothing).
    func refreshedFacts(of known: PhotoRecord, sidecar: String?, catalogueFolder: String) throws -> (PhotoRecord, FileBytes)
    /// Takes one file, with its XMP sidecar when the scan found one (`ImportScan.sidecars`) and the identity the
    /// scan's stat gave it (`ImportScan.identities`; nil: import stats it): the photo's work for the stages after it
    /// (nil when it failed or was passed over), and the step.
    func importFile(_ path: String, sidecar: String?, identity: FileIdentity?, context: StageContext) -> (PhotoWork?, StepResult)
    /// `importFile`'s answer for a file the catalogue's photo `known` records as it is now (its stat, its sidecar's,
    /// no second original), decided from a probed record (`CatalogueReader.probedPhotos`): the photo's work and the
    /// skipped step, nothing read; nil when import has more to do than say so, or `--force` asks it to.
    func unchanged(_ path: String, sidecar: String?, identity: FileIdentity, known: PhotoRecord, context: StageContext) -> (PhotoWork, StepResult)?
}

/// Runs `body` for every index below `count` and returns when each has, on several threads at once. Stages make no
/// threads (`Run` is the one home of threads and queues, ARCHITECTURE.md): the scheduler's layer passes its own
/// (`ParallelMap.indices`) to a scan, which walks a root's subfolders with it.
public typealias ParallelIndices = @Sendable (_ count: Int, _ body: @Sendable (Int) -> Void) -> Void
