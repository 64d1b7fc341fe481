import Core

/// One stage a run applied, as `runs.stages` records it when the run starts: the stage, its parameters' hash (what
/// its renditions are keyed by, `StageParameters.hash`), and for a filter stage the look it gives (the recipe's
/// canonical JSON) and its `keep`. `album prune` keeps the renditions these would produce (docs/catalogue.md
/// "Pruning").
///
/// ```
/// [{"stage":"filter","params_hash":"9f2c…","look":"[{\"sepia\":{\"amount\":0.85}}]","keep":"none"},{"stage":"thumbnail","params_hash":"3b96…"}]
/// ```
public struct AppliedStage: Sendable, Equatable {
    public var stage: StageName
    public var parametersHash: String
    /// The filter stage's look, the canonical JSON of its recipe; nil for the other stages.
    public var look: String?
    /// The filter stage's `keep` (`none`, `full-size`); nil for the other stages, and for a filter stage recorded
    /// before the option existed, which kept its full-size image.
    public var keep: String?

    public init(stage: StageName, parametersHash: String, look: String? = nil, keep: String? = nil) {
        self.stage = stage
        self.parametersHash = parametersHash
        self.look = look
        self.keep = keep
    }

    /// Whether the stage keeps full-size filtered images: `keep: full-size`, or a filter stage recorded before
    /// `keep` existed (every one did). `none` is the job file's word (`FilterStage.Keep`, which the catalogue does
    /// not know), as recorded in `runs.stages`.
    public var keepsFullSize: Bool { stage == .filter && keep != "none" }

    /// The JSON `runs.stages` holds for `stages`, in order.
    public static func json(_ stages: [AppliedStage]) -> JSONValue {
        .array(stages.map { applied in
            .object([("stage", .string(applied.stage.rawValue)), ("params_hash", .string(applied.parametersHash))]
                    + (applied.look.map { [("look", .string($0))] } ?? [])
                    + (applied.keep.map { [("keep", .string($0))] } ?? []))
        })
    }

    /// The stages a `runs.stages` value names; nil when it is not the shape `json` writes.
    public static func parse(_ text: String) -> [AppliedStage]? {
        guard case .array(let items)? = JSONValue(parsing: text) else { return nil }
        var stages: [AppliedStage] = []
        for item in items {
            guard case .object(let fields) = item else { return nil }
            let field = { (key: String) -> String? in
                fields.first { $0.0 == key }.flatMap { if case .string(let text) = $0.1 { text } else { nil } }
            }
            guard let name = field("stage"), let stage = StageName(rawValue: name), let hash = field("params_hash") else { return nil }
            stages.append(AppliedStage(stage: stage, parametersHash: hash, look: field("look"), keep: field("keep")))
        }
        return stages
    }
}
