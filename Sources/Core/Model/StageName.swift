/// What a step did to a photo: one of the stages a job lists, or `album caption`'s caption.
///
/// The steps table records these names (docs/catalogue.md). The set is open: a stage declares its own name
/// (`JobStage.stage`), and the stage registry, not this type nor the schema, says which names a job file may list
/// and in what order (`StageRegistry.names`, `StageRegistry.stepNames`). A name is lowercase letters, digits and
/// hyphens, starting with a letter:
/// ```
/// StageName.thumbnail.rawValue          // "thumbnail"
/// StageName(rawValue: "contact-sheet")  // a name a new stage may take
/// StageName(rawValue: "Thumbnail")      // nil
/// ```
public struct StageName: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    /// nil for text that is not a name (`StageName.isName`).
    public init?(rawValue: String) {
        guard StageName.isName(rawValue) else { return nil }
        self.rawValue = rawValue
    }

    private init(known: String) { rawValue = known }

    public static let `import` = StageName(known: "import")
    public static let filter = StageName(known: "filter")
    public static let thumbnail = StageName(known: "thumbnail")
    public static let export = StageName(known: "export")
    /// `album caption PHOTO TEXT`: a run of its own (job "caption", no job file) with one step. No job lists it.
    public static let caption = StageName(known: "caption")

    public var description: String { rawValue }

    /// Whether `text` is a name: lowercase ASCII letters, digits and hyphens, starting with a letter, at most 64.
    public static func isName(_ text: String) -> Bool {
        guard let first = text.utf8.first, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first), text.utf8.count <= 64 else { return false }
        return text.utf8.allSatisfy {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: "-")
        }
    }
}
