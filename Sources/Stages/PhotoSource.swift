import Vips

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
    /// The entries to take, derived files left out.
    func scan(skipping derived: DerivedFiles) -> ImportScan
    /// What it does with an entry before reading it.
    func entry(atPath path: String) -> ImportEntry
    /// Takes one file: the photo's work for the stages after it (nil when it failed or was passed over), and the step.
    func importFile(_ path: String, context: StageContext) -> (PhotoWork?, StepResult)
}
