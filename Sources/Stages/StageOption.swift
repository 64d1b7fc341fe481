import Core
import Media

/// One option of a stage, declared once in the stage's `options` table: its job-file key, what it takes and the
/// property that holds it (whose written-out default is the option's default).
///
/// Like libvips' `VIPS_ARG_INT(class, "quality", …, 1, 100, 70)`: the job file's key checking and reading
/// (`JobBuilder.readOptions`), the stage's `parameters` (recorded and hashed to decide what is up to date) and the
/// docs' tables all come from the table, so an option cannot be read without being hashed.
/// ```
/// .integer("quality", \.quality, in: 1...100)
/// ```
public struct StageOption<Stage>: Sendable {
    /// What an option takes, and where it is kept.
    public enum Kind: Sendable {
        case bool(WritableKeyPath<Stage, Bool> & Sendable)
        /// A boolean written as one of two words, e.g. `allow` / `block`.
        case flag(WritableKeyPath<Stage, Bool> & Sendable, on: String, off: String)
        /// A whole number; `unit` is said in its error messages, e.g. "megapixels".
        case integer(WritableKeyPath<Stage, Int> & Sendable, ClosedRange<Int>, unit: String?)
        /// A whole number, or none (null in the parameters).
        case optionalInteger(WritableKeyPath<Stage, Int?> & Sendable, ClosedRange<Int>)
        /// A string or a list of strings.
        case strings(WritableKeyPath<Stage, [String]> & Sendable)
        /// Paths, relative to the job file's folder.
        case paths(WritableKeyPath<Stage, [String]> & Sendable)
        /// One of an enumeration's raw values.
        case choice(StageChoice<Stage>)
        /// `WIDTHxHEIGHT`, each 1–16384, or one number for a square (`240` is `240x240`).
        case size(width: WritableKeyPath<Stage, Int> & Sendable, height: WritableKeyPath<Stage, Int> & Sendable)
        /// The stage's own `select:`; in the parameters only when given.
        case selection(WritableKeyPath<Stage, Selection?> & Sendable)
        /// A path template; its root is recorded beside it.
        case template(WritableKeyPath<Stage, PathTemplate> & Sendable)
        /// A preset's name; its recipe is recorded beside it.
        case preset(WritableKeyPath<Stage, Preset> & Sendable)
        /// Sets the main parameter of a built-in preset's primitive (`intensity` for sepia): recorded in the recipe.
        case tuning(preset: String, primitive: any FilterPrimitive.Type)
        /// Recorded in the parameters, not set by a job file (the filter stage's JPEG quality).
        case recorded(WritableKeyPath<Stage, Int> & Sendable)
        /// A video's poster frame (`PosterTime`): `auto`, `25%`, `3s`; in the parameters only when not `auto`, so
        /// the renditions made before the option existed are still up to date.
        case poster(WritableKeyPath<Stage, PosterTime> & Sendable)
    }

    public let key: String
    public let kind: Kind
    /// A job file must give it.
    public let required: Bool
    /// The default as the docs say it, where the value alone would not say it well ("the image extensions").
    public let documentedDefault: String?
    /// The photos whose renditions the option changes (`raw:` only camera RAWs'); nil: every photo's. It is in the
    /// parameters of those photos' renditions only (`DeclaredOptions.parameters(for:)`), so changing it re-renders
    /// exactly them.
    public let scope: OptionScope?

    public init(_ key: String, _ kind: Kind, required: Bool = false, documentedDefault: String? = nil, scope: OptionScope? = nil) {
        self.key = key
        self.kind = kind
        self.required = required
        self.documentedDefault = documentedDefault
        self.scope = scope
    }

    /// Whether a job file may write this key.
    public var isKey: Bool {
        if case .recorded = kind { return false }
        return true
    }

    /// This option's members of the stage's parameters, in order: usually one, none for a selection not given, a
    /// choice at its unrecorded value (`StageChoice.unrecorded`) or a tuning (it is in the recipe), two for a template (`to`, `root`; three, with `ext`, when it uses `{ext}`) or a preset (`preset`, `recipe`).
    public func parameters(of stage: Stage) -> [(String, JSONValue)] {
        switch kind {
        case .bool(let path): [(key, .bool(stage[keyPath: path]))]
        case .flag(let path, let on, let off): [(key, .string(stage[keyPath: path] ? on : off))]
        case .integer(let path, _, _), .recorded(let path): [(key, .int(stage[keyPath: path]))]
        case .optionalInteger(let path, _): [(key, .int(stage[keyPath: path]))]
        case .strings(let path), .paths(let path): [(key, .array(stage[keyPath: path].map { .string($0) }))]
        case .choice(let choice): choice.get(stage) == choice.unrecorded ? [] : [(key, .string(choice.get(stage)))]
        case .size(let width, let height): [(key, .string("\(stage[keyPath: width])x\(stage[keyPath: height])"))]
        case .selection(let path): stage[keyPath: path].map { [(key, $0.canonical)] } ?? []
        case .template(let path):
            // `ext: format`: `{ext}` is the written format's extension, no longer the original's, so a template using
            // it is not the one recorded before, and its earlier exports are old (`album prune`) once rewritten.
            // The root (and an absolute template) is recorded relative to the job's folder where it lies under it
            // (`PathTemplate.recordedRoot`, `recordedText`): a library moved whole changes nothing.
            [(key, .string(stage[keyPath: path].recordedText)), ("root", .string(stage[keyPath: path].recordedRoot))]
                + (stage[keyPath: path].usesFormatExtension ? [("ext", .string("format"))] : [])
        case .preset(let path): [(key, .string(stage[keyPath: path].name)), ("recipe", stage[keyPath: path].recipe.canonical)]
        case .tuning: []
        case .poster(let path): stage[keyPath: path] == .auto ? [] : [(key, .string(stage[keyPath: path].description))]
        }
    }
}

extension StageOption {
    package static func bool(_ key: String, _ path: WritableKeyPath<Stage, Bool> & Sendable) -> StageOption { StageOption(key, .bool(path)) }
    package static func integer(_ key: String, _ path: WritableKeyPath<Stage, Int> & Sendable, in range: ClosedRange<Int>,
                        unit: String? = nil) -> StageOption {
        StageOption(key, .integer(path, range, unit: unit))
    }
    package static func integer(_ key: String, _ path: WritableKeyPath<Stage, Int?> & Sendable, in range: ClosedRange<Int>) -> StageOption {
        StageOption(key, .optionalInteger(path, range))
    }
    package static func strings(_ key: String, _ path: WritableKeyPath<Stage, [String]> & Sendable, documentedDefault: String? = nil) -> StageOption {
        StageOption(key, .strings(path), documentedDefault: documentedDefault)
    }
    package static func choice<E: RawRepresentable & CaseIterable & Sendable>(
        _ key: String, _ path: WritableKeyPath<Stage, E> & Sendable, only: [E]? = nil, unrecorded: E? = nil,
        documentedDefault: String? = nil, scope: OptionScope? = nil
    ) -> StageOption where E.RawValue == String {
        StageOption(key, .choice(StageChoice(path, only: only, unrecorded: unrecorded)), documentedDefault: documentedDefault,
                    scope: scope)
    }
    /// `poster:`, scoped to videos.
    package static func poster(_ path: WritableKeyPath<Stage, PosterTime> & Sendable) -> StageOption {
        StageOption("poster", .poster(path), scope: .video)
    }
    package static func selection(_ path: WritableKeyPath<Stage, Selection?> & Sendable) -> StageOption {
        StageOption("select", .selection(path))
    }
}
