import Core
import Catalogue

extension ExportStage {
    /// The hash of these parameters as albums before issue 29 recorded them, with `to:`'s root absolute
    /// (`PathTemplate.root`) instead of relative to the job's folder (`recordedRoot`), and the template as written
    /// (`text`, not `recordedText`); nil when they are the same (a root outside the job's folder). An export recorded with it is up to date as long as the library has not
    /// moved since: its row takes the new hash (`upToDateUnderAbsoluteRoot`), and nothing is rendered again.
    func absoluteRootParametersHash(context: StageContext) -> String? {
        guard to.recordedRoot != to.root, case .object(let fields) = parameters else { return nil }
        let absolute = JSONValue.object(fields.map { field in
            field.0 == "root" ? (field.0, .string(to.root)) : field.0 == "to" ? (field.0, .string(to.text)) : field
        })
        return StageParameters(stage: .export, parameters: absolute, software: context.software).hash
    }

    /// Whether `previous`, this photo's export of `input`, intact, was made with these very parameters as an
    /// earlier album recorded them (`absoluteRootParametersHash`): then it is up to date, and only its row's hash
    /// is to be rewritten.
    func upToDateUnderAbsoluteRoot(_ previous: Rendition, photo: String, input: String, parametersHash: String,
                                   context: StageContext) -> Bool {
        previous.photo == photo && previous.inputHash == input && previous.parametersHash != parametersHash
            && previous.parametersHash == absoluteRootParametersHash(context: context) && RenditionFile.isIntact(previous, in: context)
    }
}
