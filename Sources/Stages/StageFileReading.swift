import YAML
import Media

/// What the job-file reader lends a stage's own reader (`RegisteredStage.read`): the schema reader that collects
/// errors, the job's folder and presets, and the readers of declared options, so that a stage's reading lives in
/// the stage's files and the job-file reader never names a stage.
package protocol StageFileReading {
    /// Collects every error, with its place in the file.
    var reader: SchemaReader { get set }
    /// The job file's folder: relative paths in the job are relative to it.
    var folder: String { get }
    /// The job's own presets (`presets:`), by name.
    var presets: [String: Preset] { get }
    /// Reports every key of a stage's mapping that its `options` table does not declare.
    mutating func checkOptionKeys<Stage: DeclaredOptions>(_ entries: [(String, Node, Node)], of _: Stage.Type, in what: String)
    /// Reads every entry that `Stage.options` declares into `stage`, checked against its kind and range.
    mutating func readOptions<Stage: DeclaredOptions>(_ entries: [(String, Node, Node)], into stage: inout Stage, in what: String)
    /// Reads one argument of a filter primitive, checked against its parameter's kind and range.
    mutating func readArgument(_ node: Node, filter: String, _ parameter: FilterParameter, what: String?) -> FilterArguments.Value?
}
