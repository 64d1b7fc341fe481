import Core
import YAML

/// A stage a job file lists under `stages:`, found by its name in `StageRegistry`: import (a `PhotoSource`, which
/// makes photos) or one of the stages after it (a `PhotoStage`, which works on a photo already in the catalogue).
///
/// What a stage is, the code outside its own files learns from here and from the protocol it conforms to, never
/// by naming its type.
public protocol JobStage: Sendable {
    /// Which stage this is: the job file's key, and the name its steps are recorded under.
    static var stage: StageName { get }
    /// Every option with its value, defaults included: recorded as the step's parameters and hashed. A stage
    /// gets it from its `options` table (`DeclaredOptions`).
    var parameters: JSONValue { get }
    /// Every parameters its renditions may be made with: `parameters`, and for options scoped to some photos
    /// (`StageOption.scope`) those photos' own. A run records each (`runs.stages`), for prune to keep.
    var parameterVariants: [JSONValue] { get }
}

extension JobStage {
    public var parameterVariants: [JSONValue] { [parameters] }
}

/// A stage with a job-file reader of its own, in its own `+JobFile` file: what `StageRegistry.registered` lists.
package protocol RegisteredStage: JobStage {
    /// Reads the stage from its mapping in `stages:` (`- thumbnail: {size: 240}`), recording every error in
    /// `file`; `earlier` are the stages listed before it, for checks across stages (`export from: thumbnail`).
    /// - Returns: the stage, or nil when the mapping could not be read at all.
    static func read<File: StageFileReading>(_ node: Node, from file: inout File, after earlier: [any PhotoStage]) -> Self?
}

extension RegisteredStage where Self: DeclaredOptions {
    /// The reader of a stage whose options are all in its table: `stage` (every default) with the keys of the
    /// mapping the table declares, each checked by its kind and range, any other key an error with "did you mean".
    /// ```
    /// static func read<File: StageFileReading>(_ node: Node, from file: inout File, after _: [any PhotoStage]) -> Self? {
    ///     readDeclared(node, from: &file, into: ThumbnailStage())
    /// }
    /// ```
    static func readDeclared<File: StageFileReading>(_ node: Node, from file: inout File, into stage: Self) -> Self? {
        let name = Self.stage.rawValue
        guard let entries = file.reader.mapping(node, name) else { return nil }
        file.checkOptionKeys(entries, of: Self.self, in: name)
        var stage = stage
        file.readOptions(entries, into: &stage, in: name)
        return stage
    }
}
