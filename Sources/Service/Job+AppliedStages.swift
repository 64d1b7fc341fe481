import Core
import Catalogue
import Stages
import JobFile

extension Job {
    /// The stages a run of this job applies, as `runs.stages` records them at the run's start: each stage's
    /// parameters hashed exactly as the scheduler hashes them for its renditions (`StageParameters`, from the same
    /// parameters and software), import's first, and each filter stage's look and `keep`; a stage whose options are
    /// scoped to some formats once per variant (`JobStage.parameterVariants`).
    package func appliedStages(software: Software) -> [AppliedStage] {
        let imported = importStage.map {
            AppliedStage(stage: .import, parametersHash: StageParameters(stage: .import, parameters: $0.parameters, software: software).hash)
        }
        // A stage with options scoped to some formats (a RAW's `raw:`) applies one parameters' hash per variant.
        return (imported.map { [$0] } ?? []) + stages.flatMap { stage in
            let name = type(of: stage).stage
            return stage.parameterVariants.map { parameters in
                AppliedStage(stage: name, parametersHash: StageParameters(stage: name, parameters: parameters, software: software).hash,
                             look: stage.appliedLook, keep: stage.appliedKeep)
            }
        }
    }
}
