import Vips
import Core
import Catalogue

/// A stage that works on a photo already in the catalogue: filter, thumbnail or export.
///
/// Stages are value types: options with every default written out, validated when the job is loaded, and
/// one `run` that turns them into one libvips pipeline. Import is the exception that makes photos (`PhotoSource`).
/// What the scheduler, the planner and prune need to know of a stage it declares here (most have a default, in the
/// extension below), so that no code outside the stage's own files names its type.
public protocol PhotoStage: JobStage {
    /// The kinds of rendition the stage writes (`Rendition.Kind`), none for a stage that records only.
    static var renditionKinds: [Rendition.Kind] { get }
    /// The stage's own selection, narrowing the job's `select:` (nil: every photo the job selects).
    var select: Selection? { get set }
    /// Runs the stage on one photo, updating `work` for the stages after it.
    func run(_ work: inout PhotoWork, context: StageContext) throws -> StepResult
    /// Says whether `run` would skip the photo as up to date, without reading pixels or writing anything, and
    /// updates `work` as `run` would (its look, its thumbnail) for the stages after it.
    func plan(_ work: inout PhotoWork, context: StageContext) throws -> Bool
    /// Whether the stage says it is up to date from a probed record alone (`upToDate(probing:)`).
    static var probesUpToDate: Bool { get }
    /// The step `run` records for `work`'s photo when it is up to date (a skipped step), decided from the columns a
    /// rerun's probe reads (`CatalogueReader.probedPhotos`, `probedRenditions`), and `work` as `run` leaves it;
    /// nil when `run` has work to do. `run` asks it first, so the two never disagree. The default, for a stage that
    /// decides from more than those columns, is nil: the scheduler then takes the photo through its chain.
    func upToDate(probing work: inout PhotoWork, context: StageContext) throws -> StepResult?
    /// How an output of this stage may derive from the photo's one shared decode (`SharedDecode`); nil: never.
    var sharedDecodeUse: SharedDecodeUse? { get }
    /// Whether the stage writes a file for each name the photo is known by (`PhotoWork.exportPaths`), so that it runs
    /// again, alone, for each alias a run finds (docs/catalogue.md, "Aliases").
    var writesEachPath: Bool { get }
    /// The folder it writes files under outside the catalogue (an export root), which import never takes from.
    var outputRoot: String? { get }
    /// The format of the files it writes, when it writes images in one format.
    var outputFormat: OutputFormat? { get }
    /// The look it gives a photo, as `runs.stages` records it (the recipe's canonical JSON), and what it keeps
    /// besides (`AppliedStage.look`, `keep`); nil for a stage that gives none.
    var appliedLook: String? { get }
    var appliedKeep: String? { get }
    /// The crop its recorded parameters (a step's `parameters`) say a rendition was framed with: nil when its
    /// renditions show the whole photo, or the text is not its parameters.
    static func framing(recorded parameters: String) -> ThumbnailGeometry?
}

extension PhotoStage {
    public static var renditionKinds: [Rendition.Kind] { [] }
    public static var probesUpToDate: Bool { false }
    public func upToDate(probing work: inout PhotoWork, context: StageContext) throws -> StepResult? { nil }
    public var sharedDecodeUse: SharedDecodeUse? { nil }
    public var writesEachPath: Bool { false }
    public var outputRoot: String? { nil }
    public var outputFormat: OutputFormat? { nil }
    public var appliedLook: String? { nil }
    public var appliedKeep: String? { nil }
    public static func framing(recorded parameters: String) -> ThumbnailGeometry? { nil }
}
