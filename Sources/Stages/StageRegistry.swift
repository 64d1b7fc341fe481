import Core
import Catalogue

/// Every stage a job file may list, in the order a photo goes through them: the one table the job-file reader,
/// the step names and the rendition kinds come from.
///
/// Adding a stage is one new file (a type conforming to `PhotoStage`, `DeclaredOptions` and `RegisteredStage`: its
/// name, its options table, its reader, its `run` and `plan`) and one line here, as libvips finds an operation by
/// name in the table its classes fill. Worked example: `StageRegistryTests.testANewStageGetsEverythingFromItsDeclaration`.
package enum StageRegistry {
    /// The stages, in their canonical order: import first.
    package static let registered: [any RegisteredStage.Type] = [
        ImportStage.self,
        FilterStage.self,
        ThumbnailStage.self,
        ExportStage.self,
    ]

    /// The names a job file may list, in order.
    package static var names: [StageName] { registered.map { $0.stage } }

    /// Every name a step may carry, in the order tables and reports list them: the job stages, then `caption`
    /// (`album caption`'s step, which no job lists).
    package static var stepNames: [StageName] { names + [.caption] }

    /// The stage of `stages` called `name` (a job file's key); nil for any other name, `caption` among them.
    package static func stage(named name: String, in stages: [any RegisteredStage.Type] = registered) -> (any RegisteredStage.Type)? {
        stages.first { $0.stage.rawValue == name }
    }

    /// The registered stage after import called `name`, e.g. to read its recorded parameters back.
    package static func photoStage(named name: String) -> (any PhotoStage.Type)? {
        stage(named: name) as? any PhotoStage.Type
    }

    /// The rendition kinds the registered stages write, in order.
    static var renditionKinds: [Rendition.Kind] {
        registered.compactMap { $0 as? any PhotoStage.Type }.flatMap { $0.renditionKinds }
    }

    /// The registered source (import) taking files from `roots`, every other option at its default
    /// (`album import PATH…`).
    package static func source(from roots: [String]) -> any PhotoSource {
        guard let source = registered.lazy.compactMap({ $0 as? any PhotoSource.Type }).first else {
            fatalError("no stage that makes photos is registered")  // a programmer's error: StageRegistry lists import
        }
        return source.init(from: roots)
    }
}
