/// What a step did to a photo: one of the four stages a job lists, or `album caption`'s caption.
///
/// The steps table records these names (docs/catalogue.md). `allCases` is every name a step may carry, in the
/// order tables and reports list them; `jobStages` is the four a job file may list, in the order a photo goes
/// through them:
/// ```
/// StageName.jobStages    // [.import, .filter, .thumbnail, .export]
/// StageName.allCases     // the same, then .caption
/// ```
public enum StageName: String, Sendable, CaseIterable, Comparable {
    case `import`, filter, thumbnail, export
    /// `album caption PHOTO TEXT`: a run of its own (job "caption", no job file) with one step. No job lists it.
    case caption

    /// The stages a job file may list, in their canonical order.
    public static let jobStages: [StageName] = [.import, .filter, .thumbnail, .export]

    public static func < (lhs: StageName, rhs: StageName) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
